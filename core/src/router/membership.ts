import { invalidInput } from '../errors.js';

/** One year of membership (docs/design.md#router). */
export const MEMBERSHIP_PRICE = '100.00';
export const MEMBERSHIP_TERM_YEARS = 1;

/**
 * The same UTC calendar date and time one year later. A membership activated on 29 February
 * ends on 28 February: the term never runs past the anniversary month.
 */
export function membershipExpiry(activatedAt: Date): Date {
  const t = activatedAt.getTime();
  if (!Number.isFinite(t)) throw invalidInput('activation time must be a valid date');
  const expiry = new Date(t);
  const month = expiry.getUTCMonth();
  expiry.setUTCFullYear(expiry.getUTCFullYear() + MEMBERSHIP_TERM_YEARS);
  if (expiry.getUTCMonth() !== month) expiry.setUTCDate(0);
  return expiry;
}

/** Active means activated and not yet expired at `now`. */
export function membershipActive(expiresAt: Date | null, now: Date): boolean {
  return expiresAt !== null && now.getTime() < expiresAt.getTime();
}
