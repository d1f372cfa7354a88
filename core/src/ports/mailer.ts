export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends e-mail. `configured` is false for the development mailer that only logs. */
export interface Mailer {
  readonly configured: boolean;
  send(message: MailMessage): Promise<void>;
}
