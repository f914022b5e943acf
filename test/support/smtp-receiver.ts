import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  /** The whole message as sent, headers and MIME parts. */
  raw: string;
  /** `raw` with quoted-printable soft breaks and escapes undone, for finding links and words. */
  decoded: string;
}

export interface SmtpReceiver {
  url: string;
  mails: ReceivedMail[];
  /** Resolves with the next mail (or the first one already there beyond `seen`). */
  nextMail(seen?: number, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on a free local port, so tests hold a true SMTP conversation with nodemailer.
 * `refuse: true` makes it answer every message with a permanent error (550); `refuseRecipients` answers RCPT TO
 * for those addresses with 501, as a mail server does for an address it cannot take. Like real servers, it also
 * answers 501 to an address of bad syntax (e.g. `a..b@example.org`) by itself.
 */
export async function startSmtpReceiver(
  options: { refuse?: boolean; refuseRecipients?: string[] } = {},
): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!options.refuseRecipients?.includes(address.address)) return callback();
      callback(Object.assign(new Error('Bad recipient address syntax'), { responseCode: 501 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (options.refuse) return callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, decoded: decodeQuotedPrintable(raw) });
        waiters.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async nextMail(seen = 0, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length <= seen) {
        if (Date.now() > deadline) throw new Error('no mail arrived in time');
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return mails[seen]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'));
}
