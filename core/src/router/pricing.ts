import { Decimal } from 'decimal.js';
import { invalidInput } from '../errors.js';
import { NodeClass } from '../schemas/enums.js';

/**
 * Money arithmetic with enough precision that the only rounding is the final one to cents
 * (hours carry at most 40 characters, so products stay exact well within 64 digits).
 */
const Money = Decimal.clone({ precision: 64, rounding: Decimal.ROUND_HALF_UP });
type Money = InstanceType<typeof Money>;

/** Server constants (docs/design.md#router); a caller-supplied rate is never used. */
export const HOURLY_RATES: Readonly<Record<NodeClass, string>> = Object.freeze({
  gpu_a_96gb: '5.00',
  gpu_b_32gb: '2.00',
});

export const CURRENCY = 'USD';
export const MAX_HOURS = 8760;

/** Plain decimal notation only: no sign, exponent, hex or surrounding blanks. */
const DECIMAL_TEXT = /^\d+(\.\d+)?$/;
const MAX_HOURS_TEXT = 40;

export interface Quote {
  node_class: NodeClass;
  /** The hours as given, normalised to a number. */
  hours: number;
  hourly_rate: string;
  amount: string;
  currency: typeof CURRENCY;
}

export interface JobCost {
  node_class: NodeClass;
  /** Whole seconds from accept to complete. */
  seconds: number;
  hourly_rate: string;
  amount: string;
  currency: typeof CURRENCY;
}

function toCents(value: Money): string {
  return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}

export function parseNodeClass(nodeClass: unknown): NodeClass {
  const parsed = NodeClass.safeParse(nodeClass);
  if (!parsed.success) {
    throw invalidInput(`unknown node_class; expected one of ${NodeClass.options.join(', ')}`);
  }
  return parsed.data;
}

/** Hours as a number or a numeric string, greater than 0 and at most 8760 (one year). */
export function parseHours(hours: unknown): Money {
  let value: Money;
  if (typeof hours === 'number' && Number.isFinite(hours)) {
    value = new Money(hours);
  } else if (
    typeof hours === 'string' &&
    hours.length <= MAX_HOURS_TEXT &&
    DECIMAL_TEXT.test(hours)
  ) {
    value = new Money(hours);
  } else {
    throw invalidInput('hours must be a finite decimal number');
  }
  if (value.lte(0) || value.gt(MAX_HOURS)) {
    throw invalidInput(`hours must be greater than 0 and at most ${MAX_HOURS}`);
  }
  return value;
}

export function hourlyRate(nodeClass: unknown): string {
  return HOURLY_RATES[parseNodeClass(nodeClass)];
}

/** `amount = hours × rate`, rounded half-up to cents. */
export function quote(nodeClass: unknown, hours: unknown): Quote {
  const cls = parseNodeClass(nodeClass);
  const h = parseHours(hours);
  const rate = HOURLY_RATES[cls];
  return {
    node_class: cls,
    hours: h.toNumber(),
    hourly_rate: rate,
    amount: toCents(h.times(rate)),
    currency: CURRENCY,
  };
}

/** What a completed job costs: whole seconds from accept to complete × rate / 3600, half-up to cents. */
export function actualCost(nodeClass: unknown, acceptedAt: Date, completedAt: Date): JobCost {
  const cls = parseNodeClass(nodeClass);
  const elapsed = completedAt.getTime() - acceptedAt.getTime();
  if (!Number.isFinite(elapsed)) throw invalidInput('accepted and completed times must be valid');
  if (elapsed < 0) throw invalidInput('a job cannot complete before it was accepted');
  const seconds = Math.floor(elapsed / 1000);
  const rate = HOURLY_RATES[cls];
  return {
    node_class: cls,
    seconds,
    hourly_rate: rate,
    amount: toCents(new Money(seconds).times(rate).dividedBy(3600)),
    currency: CURRENCY,
  };
}
