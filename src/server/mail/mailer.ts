/** A rendered message, ready to send. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header fields, e.g. List-Unsubscribe on reminder mails. */
  headers?: Record<string, string>;
}

/** The one way the server sends mail: SMTP in production, an outbox folder without `SMTP_URL`. */
export interface Mailer {
  /**
   * Resolves once the receiving server accepted the message; rejects (within 10 s) when it cannot be sent, with a
   * `MailRefusedError` when the server answered this message with a refusal.
   */
  send(message: MailMessage): Promise<void>;
  /**
   * Opens and closes a conversation with the mail server without sending anything, failing like `send` would.
   * Used for unknown addresses at reset-request, so they cost the same time and fail the same way as known ones.
   */
  verify(): Promise<void>;
}

/**
 * The mail server was reached and answered this message (its envelope or content) with an error code, 4xx or 5xx,
 * e.g. "501 Bad recipient address syntax": unlike an unreachable server, this depends on the message, so on the
 * address (decision 0194).
 */
export class MailRefusedError extends Error {
  constructor(
    readonly responseCode: number | undefined,
    options: { cause: unknown },
  ) {
    super(`the mail server refused the message${responseCode === undefined ? '' : ` (${responseCode})`}`, options);
    this.name = 'MailRefusedError';
  }
}
