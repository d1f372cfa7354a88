import type { Mailer } from '@runledger/core/ports';

/**
 * The development mailer: logs who would receive what subject, never the body, because the body
 * carries a sign-in or invite link that would let anyone reading the log sign in.
 */
export function consoleMailer(log: (line: string) => void = console.log): Mailer {
  return {
    configured: false,
    async send(message) {
      log(`mail to ${message.to}: ${message.subject} (body not logged)`);
    },
  };
}
