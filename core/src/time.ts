import type { Clock } from './ports/clock.js';

/** The clock's now as an ISO 8601 UTC timestamp, the form every record stores. */
export function nowIso(clock: Clock): string {
  return clock.now().toISOString();
}

export function addMs(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString();
}
