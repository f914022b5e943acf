import type { AppDeps } from '../deps.js';
import { serverTimeZone } from '../goals/start.js';
import { BackupScheduler, type SchedulerLog } from './scheduler.js';

/** Starts the daily backup when BACKUP_DIR is set; null otherwise. */
export function startScheduledBackups(
  deps: Pick<AppDeps, 'config' | 'db' | 'clock'>,
  log: SchedulerLog,
): BackupScheduler | null {
  const { backupDir, database } = deps.config;
  if (backupDir === null) return null;
  const scheduler = new BackupScheduler({
    db: deps.db,
    clock: deps.clock,
    database,
    backupDir,
    timeZone: serverTimeZone(),
    log,
  });
  scheduler.start();
  log.info({ backupDir }, 'daily backup at 03:00 server time, newest 14 kept');
  return scheduler;
}
