import type { EvidenceKind } from '../schemas/enums.js';

/** What one auto rule concluded; the engine adds the rule's identity to make a check. */
export interface Finding {
  status: 'pass' | 'flag' | 'skip';
  detail: string;
}

/** The part of an evidence record the rules look at. */
export interface EvidenceSummary {
  kind: EvidenceKind;
}

export const pass = (detail: string): Finding => ({ status: 'pass', detail });
export const flag = (detail: string): Finding => ({ status: 'flag', detail });
export const skip = (detail: string): Finding => ({ status: 'skip', detail });

const SHOW_MAX = 60;

/** A value as it appears in a detail sentence: JSON, cut short so details stay short. */
export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOW_MAX ? `${text.slice(0, SHOW_MAX - 1)}…` : text;
}

/** "a, b and 3 more": lists stay short in a detail. */
export function listShort(items: readonly string[], max = 3): string {
  const shown = items.slice(0, max).join(', ');
  return items.length > max ? `${shown} and ${items.length - max} more` : shown;
}
