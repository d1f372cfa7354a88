import type { MailMessage, Mailer } from '../ports/mailer.js';

/** A mailer that keeps what it was asked to send, so a test can read the link out of it. */
export class CapturingMailer implements Mailer {
  readonly sent: MailMessage[] = [];

  constructor(readonly configured: boolean) {}

  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
}
