import { buildApp } from './app.js';
import { startScheduledBackups } from './backup/start.js';
import { systemClock } from './clock.js';
import { ConfigError, loadConfig } from './config.js';
import { announceFirstInvite } from './invites/first-invite.js';
import { createServerLogger } from './log.js';
import { openServices } from './services.js';

/** Process entry: config -> database -> app -> listen, and a clean shutdown on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createServerLogger(config.logLevel);
  const services = await openServices(config, { clock: systemClock, log });
  const { deps } = services;
  const app = await buildApp(deps, log);
  await announceFirstInvite(deps, log);
  const backups = startScheduledBackups(deps, log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    await app.close();
    await backups?.stop();
    await services.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  log.info(`Steady is running at ${config.baseUrl}`);
}

function loadConfigOrExit() {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`steady: invalid configuration: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}

main().catch((error: unknown) => {
  console.error('steady: failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
