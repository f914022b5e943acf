import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { shuttingDown } from './http/errors.js';

/** How long requests in flight may take to finish after SIGTERM/SIGINT before their connections are cut. */
export const DRAIN_TIMEOUT_MS = 10_000;

export interface ShutdownParts {
  app: FastifyInstance;
  /** Closes what the app used (the database); runs once no request is left. */
  closeServices(): Promise<void>;
  log: Logger;
  drainTimeoutMs?: number;
  exit?: (code: number) => void;
}

/**
 * The shutdown `main.ts` runs on SIGTERM or SIGINT: stop accepting connections, let the requests in flight answer (their connections close
 * after the answer), then run the app's onClose hooks (background jobs) and close the database, and exit 0.
 * A request still running after the drain time has its connection cut, so a stuck client cannot keep the
 * process alive (decision 0052). A second signal during the drain changes nothing.
 */
export function gracefulShutdown({
  app,
  closeServices,
  log,
  drainTimeoutMs = DRAIN_TIMEOUT_MS,
  exit = process.exit,
}: ShutdownParts) {
  let closing = false;
  return async (signal: string): Promise<void> => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: no new connections, finishing the requests in flight');
    const cut = setTimeout(() => {
      log.warn({ drainTimeoutMs }, 'requests still running after the drain time; closing their connections');
      app.server.closeAllConnections();
    }, drainTimeoutMs);
    cut.unref();
    let code = 0;
    try {
      await app.close();
      await closeServices();
      log.info('stopped');
    } catch (error) {
      log.error({ err: error }, 'shutdown failed');
      code = 1;
    } finally {
      clearTimeout(cut);
    }
    exit(code);
  };
}

/**
 * Once `app.close()` began, a request that still arrives (pipelined, or on a keep-alive connection busy at the
 * signal) is answered 503 `shutting_down` with Retry-After in the error shape every other refusal has; Fastify's own
 * `return503OnClosing` answer has neither (decision 0196). Requests already past this hook run to their end.
 */
export function refuseRequestsWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    done(closing ? shuttingDown() : undefined);
  });
}
