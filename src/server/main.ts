import { buildApp } from './app.js';
import { systemClock } from './clock.js';
import { ConfigError, loadConfig } from './config.js';
import { announceFirstInvite } from './invites/first-invite.js';
import { createLogger } from './log.js';
import { saveServedBaseUrl } from './ops/server-state-store.js';
import { openServices } from './services.js';
import { gracefulShutdown } from './shutdown.js';

/** Process entry: config -> database -> app -> listen, and a graceful shutdown on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const log = createLogger({ level: config.logLevel, readable: process.stdout.isTTY === true });
  const services = await openServices(config, { clock: systemClock, log });
  const { deps } = services;
  const app = await buildApp(deps, log);
  const shutdown = gracefulShutdown({ app, closeServices: () => services.close(), log });
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({
    port: config.port,
    host: config.host,
    // The address to open is BASE_URL, not the socket Fastify names (127.0.0.1 may not be what links use).
    listenTextResolver: (address) => `Steady is running at ${config.baseUrl} (listening on ${address})`,
  });
  // `steady invite` without BASE_URL of its own prints links to this address.
  await saveServedBaseUrl(deps.db, config.baseUrl, systemClock.now());
  await announceFirstInvite(deps, log);
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
