import { ConfigError, loadConfig } from './config.js';

/** Process entry: config -> database -> app -> listen, and a graceful shutdown on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfig();
  // Loaded only after the configuration passed, so a bad variable is reported at once.
  const [
    { buildApp },
    { startScheduledBackups },
    { createReminderScheduler },
    { createHousekeeping },
    { systemClock },
    { announceFirstInvite },
    { createLogger },
    { saveServedBaseUrl },
    { openServices },
    { gracefulShutdown },
    { makeConfiguredFolder },
    { databaseAmongDailyBackups },
  ] = await Promise.all([
    import('./app.js'),
    import('./backup/start.js'),
    import('./reminders/start.js'),
    import('./ops/housekeeping.js'),
    import('./clock.js'),
    import('./invites/first-invite.js'),
    import('./log.js'),
    import('./ops/server-state-store.js'),
    import('./services.js'),
    import('./shutdown.js'),
    import('./private-files.js'),
    import('./backup/scheduler.js'),
  ]);
  // Checked before the server answers: a backup folder that cannot be written would otherwise fail only at 03:00.
  if (config.backupDir !== null) {
    makeConfiguredFolder('BACKUP_DIR', config.backupDir);
    // Before the database is opened: a restore started on a daily backup in place would lose its data at 03:00.
    const inBackups = databaseAmongDailyBackups(config.database, config.backupDir);
    if (inBackups !== null)
      throw new ConfigError(
        'DATABASE_URL',
        `${inBackups} is one of BACKUP_DIR's daily backups, which the daily backup replaces or removes; copy it out of BACKUP_DIR and start on the copy`,
      );
  }
  const log = createLogger({ level: config.logLevel, readable: process.stdout.isTTY === true });
  const services = await openServices(config, { clock: systemClock, log });
  const { deps } = services;
  const app = await buildApp(deps, log);
  let backups: ReturnType<typeof startScheduledBackups> = null;
  const reminders = createReminderScheduler(deps, log);
  const housekeeping = createHousekeeping(deps, log);
  const shutdown = gracefulShutdown({
    app,
    async closeServices() {
      await backups?.stop();
      await reminders.stop();
      await housekeeping.stop();
      await services.close();
    },
    log,
  });
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({
    port: config.port,
    host: config.host,
    // The address to open is BASE_URL, not the socket Fastify names (127.0.0.1 may not be what links use).
    listenTextResolver: (address) => `Steady is running at ${config.baseUrl} (listening on ${address})`,
  });
  // The background jobs start once the server answers: their first checks would delay the first answer.
  backups = startScheduledBackups(deps, log);
  reminders.start();
  housekeeping.start();
  // `steady invite` without BASE_URL of its own prints links to this address.
  await saveServedBaseUrl(deps.db, config.baseUrl, systemClock.now());
  await announceFirstInvite(deps, log);
}

// A bad variable, found at once or when its folder is made, is one line naming it and exit code 2.
main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`steady: invalid configuration: ${error.message}`);
    process.exit(2);
  }
  console.error('steady: failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
