import fs from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { oneLine } from '../../common/names.js';
import type { Config } from '../config.js';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '../private-files.js';
import { MailRefusedError, type MailMessage, type Mailer } from './mailer.js';

/** How long one SMTP conversation may take before the request answers 500 (issue: within 10 s). */
export const SMTP_TIMEOUT_MS = 10_000;

export function createMailer(config: Config, log: Logger): Mailer {
  return config.smtpUrl
    ? smtpMailer(config.smtpUrl, config.mailFrom)
    : outboxMailer(path.join(config.dataDir, 'outbox'), log);
}

/**
 * Real SMTP: resolves when the server accepted the message, rejects when it refused or did not answer within
 * `timeoutMs` (tests shorten it; production keeps SMTP_TIMEOUT_MS).
 */
export function smtpMailer(smtpUrl: string, from: string, { timeoutMs = SMTP_TIMEOUT_MS } = {}): Mailer {
  // nodemailer's own timeouts only free the socket of a hung conversation; they run a little longer than the
  // deadline so that the deadline, with its one message, is always what the caller sees.
  const socketTimeoutMs = timeoutMs + 1_000;
  // Loaded with the first mail, not at start: nodemailer is a tenth of the server's start time (decision 0058).
  let transport: Promise<Transporter> | undefined;
  const connect = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: smtpUrl,
        connectionTimeout: socketTimeoutMs,
        greetingTimeout: socketTimeoutMs,
        socketTimeout: socketTimeoutMs,
      }),
    ));
  return {
    async send(message) {
      await withDeadline(
        connect().then((smtp) => smtp.sendMail({ from, ...message }).catch(refusalOf)),
        timeoutMs,
      );
    },
    async verify() {
      await withDeadline(
        connect().then((smtp) => smtp.verify()),
        timeoutMs,
      );
    },
  };
}

/**
 * Without SMTP_URL: each mail becomes a file in the outbox folder (0600, in a 0700 folder), and the log names the
 * file only: the link in it is a secret and stays out of the log (docs/decisions/0065-log-hygiene.md).
 */
export function outboxMailer(folder: string, log: Logger): Mailer {
  return {
    async send(message: MailMessage) {
      makePrivateFolder(folder);
      const file = path.join(
        folder,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.hrtime.bigint()}.txt`,
      );
      // Header values on one line, as nodemailer writes them: a newline in a subject would start a header of its own.
      const subject = oneLine(message.subject);
      const extra = Object.entries(message.headers ?? {}).map(([name, value]) => `${name}: ${oneLine(value)}\n`);
      const content = `To: ${oneLine(message.to)}\nSubject: ${subject}\n${extra.join('')}\n${message.text}\n`;
      await fs.writeFile(file, content, { mode: PRIVATE_FILE_MODE });
      log.info({ to: message.to, file }, `mail written to the outbox (no SMTP_URL): ${subject}`);
    },
    async verify() {},
  };
}

/** nodemailer's codes for a refused sender or recipient (EENVELOPE) and a refused message (EMESSAGE). */
const REFUSAL_CODES = new Set(['EENVELOPE', 'EMESSAGE']);

function refusalOf(error: unknown): never {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  if (typeof code === 'string' && REFUSAL_CODES.has(code)) {
    throw new MailRefusedError(typeof responseCode === 'number' ? responseCode : undefined, { cause: error });
  }
  throw error;
}

/** A deadline over the whole conversation: nodemailer's socket timeouts alone restart with every byte received. */
function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`mail server did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
