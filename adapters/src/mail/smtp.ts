import type { Mailer } from '@runledger/core/ports';
import nodemailer from 'nodemailer';

/** Sends through the SMTP server of SMTP_URL (e.g. smtps://user:pass@smtp.example.com:465). */
export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    configured: true,
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    },
  };
}
