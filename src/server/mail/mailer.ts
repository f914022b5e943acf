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
  /** Resolves once the receiving server accepted the message; rejects (within 10 s) when it cannot be sent. */
  send(message: MailMessage): Promise<void>;
  /**
   * Opens and closes a conversation with the mail server without sending anything, failing like `send` would.
   * Used for unknown addresses at reset-request, so they cost the same time and fail the same way as known ones.
   */
  verify(): Promise<void>;
}
