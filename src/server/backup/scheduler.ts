import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { HOUR, MINUTE, type Clock } from '../clock.js';
import type { DatabaseConfig } from '../config.js';
import type { Database } from '../db/schema.js';
import { wallClockText } from '../goals/start.js';
import { backupDatabase } from './backup.js';
import { RetryBackoff } from './retry-backoff.js';
import { claimBackupDay, finishBackupDay, releaseBackupDay } from './store.js';
import { WallClockPoller } from '../wall-clock-poller.js';
import { FailureStreak } from '../failure-streak.js';

/** The local hour from which a day's backup is due (server time, `TZ`). */
export const BACKUP_HOUR = 3;
/** Backups kept in BACKUP_DIR; older ones are removed after each new one. */
export const BACKUPS_KEPT = 14;
/** How often the wall clock is checked: a sleeping laptop or a clock change is noticed within a minute. */
export const CHECK_INTERVAL_MS = MINUTE;
/** A claim older than this whose backup never finished belonged to a process that died; another may take over. */
const STALE_CLAIM_MS = HOUR;

/** A day's backup file; the day is its first group. */
const BACKUP_NAME = /^steady-(\d{4}-\d{2}-\d{2})\.(db|dump)$/;
/**
 * A day's earlier file, kept when that day's backup is written again (a database restored that day, decision 0223):
 * `steady-2026-01-15.replaced-041000.db`, the time it was set aside. Removed with its day's file.
 */
const REPLACED_NAME = /^steady-(\d{4}-\d{2}-\d{2})\.replaced-\d{6}\.(db|dump)$/;

/** The extension of a daily backup: a SQLite file, or pg_dump's custom format. */
export const backupExtension = (database: DatabaseConfig): 'db' | 'dump' =>
  database.kind === 'sqlite' ? 'db' : 'dump';

export interface SchedulerLog {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface BackupSchedulerOptions {
  db: Kysely<Database>;
  clock: Clock;
  database: DatabaseConfig;
  backupDir: string;
  timeZone: string;
  log: SchedulerLog;
}

/**
 * The daily backup into BACKUP_DIR (docs/decisions/0075-scheduled-backups.md). It never sleeps until a computed
 * instant: every check reads the clock, and from 03:00 local time on, the first check of any process that
 * finds the day unclaimed writes `steady-YYYY-MM-DD.db` (`.dump` on PostgreSQL) and prunes to the newest 14.
 * A day missed while no server ran is caught up at the next check of that day. A failed backup is tried again 1,
 * 2, 4, ... minutes later, at most an hour apart (decision 0214).
 */
export class BackupScheduler {
  private readonly poller = new WallClockPoller(() => this.checkOnce());
  /** This process's failed backups in a row: each waits longer before the next try (decision 0214). */
  private readonly backoff = new RetryBackoff();
  /** Claims of the day that found no database: logged once, then hourly (decision 0228). */
  private readonly claimFailures: FailureStreak;

  constructor(private readonly options: BackupSchedulerOptions) {
    this.claimFailures = new FailureStreak(
      options.log,
      'scheduled backup: the database could not be asked',
      'scheduled backup: the database answers again',
    );
  }

  /** BACKUP_DIR was made before the server answered (main.ts); one that goes missing later fails each check, logged. */
  start(intervalMs = CHECK_INTERVAL_MS): void {
    this.poller.start(intervalMs);
  }

  /** Stops checking and waits for a backup in progress. */
  stop(): Promise<void> {
    return this.poller.stop();
  }

  /** One look at the clock; returns the backup file written, or null. Overlapping calls share one run. */
  check(): Promise<string | null> {
    return this.poller.check();
  }

  private async checkOnce(): Promise<string | null> {
    const { db, clock, log } = this.options;
    const now = clock.now();
    const local = wallClockText(now, this.options.timeZone);
    const day = local.slice(0, 10);
    if (Number(local.slice(11, 13)) < BACKUP_HOUR || !this.backoff.due(now)) return null;
    try {
      const claimed = await claimBackupDay(db, day, now, STALE_CLAIM_MS);
      this.claimFailures.succeeded(now);
      if (!claimed) return null;
    } catch (error) {
      this.claimFailures.failed(error, now);
      return null;
    }
    const target = path.join(this.options.backupDir, `steady-${day}.${backupExtension(this.options.database)}`);
    try {
      // The day's file is there when the database was restored that day (from it, or from an older day's file: then
      // it holds the newer state, which the operator may still need) or when a failure after the rename gave the day
      // back. It is kept under another name; the day's name goes to the new copy, the state now served.
      const keptEarlier = setAsideDayFile(target, local);
      const { bytes } = await backupDatabase(this.options.database, target, { replace: false });
      await finishBackupDay(db, day, clock.now());
      this.backoff.succeeded();
      const removed = pruneBackups(this.options.backupDir, BACKUPS_KEPT);
      log.info({ file: target, bytes, removed, ...(keptEarlier && { keptEarlier }) }, 'scheduled backup written');
      return target;
    } catch (error) {
      const waitMs = this.backoff.failed(clock.now());
      log.error(
        { err: error, file: target, retryInMinutes: waitMs / MINUTE },
        'scheduled backup failed; trying again later',
      );
      // Given back, so another process (whose own tries are not failing) may write the day meanwhile.
      await releaseBackupDay(db, day).catch(() => undefined);
      return null;
    }
  }
}

/**
 * The SQLite database file when it is one of BACKUP_DIR's daily backup files, else null: the scheduler would set it
 * aside for the day's new copy or remove it as an old one, and the server's data with it (decisions 0216, 0223). Folders are
 * compared by their real paths, so a link to BACKUP_DIR counts as BACKUP_DIR.
 */
export function databaseAmongDailyBackups(database: DatabaseConfig, backupDir: string): string | null {
  if (database.kind !== 'sqlite') return null;
  const name = path.basename(database.file);
  if (!BACKUP_NAME.test(name) && !REPLACED_NAME.test(name)) return null;
  const realFolder = (folder: string) => {
    try {
      return fs.realpathSync(folder);
    } catch {
      return path.resolve(folder);
    }
  };
  return realFolder(path.dirname(database.file)) === realFolder(backupDir) ? database.file : null;
}

/**
 * Renames the day's backup file `target`, if there is one, to the REPLACED_NAME of `wallClock` (`YYYY-MM-DD
 * HH:MM:SS`, now); returns the new path, or null when there was none.
 */
function setAsideDayFile(target: string, wallClock: string): string | null {
  const time = wallClock.slice(11, 19).replaceAll(':', '');
  const aside = target.replace(/\.(db|dump)$/, `.replaced-${time}.$1`);
  try {
    fs.renameSync(target, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  return aside;
}

/**
 * Removes all but the newest `keep` backups (by the date in their names), and the earlier files set aside on days no
 * longer kept; returns the names removed.
 */
export function pruneBackups(directory: string, keep: number): string[] {
  const names = fs.readdirSync(directory);
  const backups = names
    .filter((name) => BACKUP_NAME.test(name))
    .sort()
    .reverse();
  const oldestKeptDay = BACKUP_NAME.exec(backups.slice(0, keep).at(-1) ?? '')?.[1];
  const removed = [
    ...backups.slice(keep),
    ...names.filter((name) => {
      const day = REPLACED_NAME.exec(name)?.[1];
      return day !== undefined && oldestKeptDay !== undefined && day < oldestKeptDay;
    }),
  ];
  for (const name of removed) fs.rmSync(path.join(directory, name), { force: true });
  return removed;
}
