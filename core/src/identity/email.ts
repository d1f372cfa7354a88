import { invalidInput } from '../errors.js';
import { EmailAddress } from '../schemas/identity.js';

/** Trimmed, lower-cased and validated: e-mail addresses are compared case-insensitively. */
export function normalizeEmail(email: string): string {
  const parsed = EmailAddress.safeParse(email);
  if (!parsed.success) throw invalidInput('invalid e-mail address');
  return parsed.data;
}
