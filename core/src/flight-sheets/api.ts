import type { Actor } from '../actor.js';
import type { Page, Paged } from '../paging.js';
import type { FlightSheet } from '../schemas/flight-sheet.js';

export interface FlightSheetUseCases {
  /** Built-in sheets first, then the org's own in creation order; `lane` filters both. */
  list(actor: Actor, query: { lane?: string } & Page): Promise<Paged<FlightSheet>>;
  /** By id, or by slug (the newest version). */
  get(actor: Actor, idOrSlug: string): Promise<FlightSheet>;
  /** Owner only. Validates the input; a slug's new version must be higher than its newest (409). */
  create(actor: Actor, input: unknown): Promise<FlightSheet>;
}
