import { conflict, notFound } from '../errors.js';
import { actorId, requireOwner } from '../actor.js';
import { auditActor, recordAudit } from '../audit-receipts/record.js';
import { nowIso } from '../time.js';
import { newId } from '../ids.js';
import { encodeCursor, pageQuery } from '../paging.js';
import { lockKeys } from '../ports/lock-keys.js';
import type { FlightSheetRecord, Repositories } from '../ports/storage.js';
import type { FlightSheet } from '../schemas/flight-sheet.js';
import type { Actor } from '../actor.js';
import type { Deps } from '../deps.js';
import type { FlightSheetUseCases } from './api.js';
import type { Page, Paged } from '../paging.js';
import { BUILTIN_FLIGHT_SHEETS } from './builtin.js';
import { flightSheetSha256 } from './sha256.js';
import { validateFlightSheetInput } from './validate.js';

export function toFlightSheet(record: FlightSheetRecord): FlightSheet {
  return {
    id: record.id,
    ...record.content,
    sha256: record.sha256,
    builtin: false,
    created_at: record.created_at,
  };
}

/** MAJOR.MINOR.PATCH as numbers, for "is this version higher". */
function versionParts(version: string): [number, number, number] {
  const [a = 0, b = 0, c = 0] = version.split('.').map(Number);
  return [a, b, c];
}

export function compareVersions(a: string, b: string): number {
  const [x, y] = [versionParts(a), versionParts(b)];
  for (let i = 0; i < 3; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * A sheet by id or slug: built-ins first (their ids and slugs are reserved), then the org's own
 * by id, then by slug (the newest version).
 */
export async function findFlightSheet(
  tx: Repositories,
  orgId: string,
  idOrSlug: string,
): Promise<FlightSheet | null> {
  const builtin = BUILTIN_FLIGHT_SHEETS.find((s) => s.id === idOrSlug || s.slug === idOrSlug);
  if (builtin) return builtin;
  const record =
    (await tx.flightSheets.get(orgId, idOrSlug)) ??
    (await tx.flightSheets.latestBySlug(orgId, idOrSlug));
  return record ? toFlightSheet(record) : null;
}

/** The sheet a run is pinned to; it is immutable, so the id finds exactly that version. */
export async function pinnedFlightSheet(
  tx: Repositories,
  orgId: string,
  id: string,
): Promise<FlightSheet> {
  const builtin = BUILTIN_FLIGHT_SHEETS.find((s) => s.id === id);
  if (builtin) return builtin;
  const record = await tx.flightSheets.get(orgId, id);
  if (!record) throw notFound('flight sheet');
  return toFlightSheet(record);
}

/** Built-in sheets sort before the org's own: their cursor key is an empty created_at. */
const BUILTIN_KEY = '';

export function flightSheetUseCases(deps: Deps): FlightSheetUseCases {
  const { storage, clock, random } = deps;
  return {
    async list(actor: Actor, query: { lane?: string } & Page): Promise<Paged<FlightSheet>> {
      const { query: pq, limit } = pageQuery(query);
      const lane = query.lane ?? null;
      const after = pq.after;
      const builtins = BUILTIN_FLIGHT_SHEETS.filter(
        (s) =>
          (lane === null || s.lane === lane) &&
          (after === null || (after.created_at === BUILTIN_KEY && s.id > after.id)),
      )
        .slice()
        .sort((a, b) => (a.id < b.id ? -1 : 1));
      const customAfter = after === null || after.created_at === BUILTIN_KEY ? null : after;
      const wanted = pq.limit - Math.min(builtins.length, pq.limit);
      const custom =
        wanted === 0
          ? []
          : await storage.read((tx) =>
              tx.flightSheets.list(actor.orgId, lane, { limit: wanted, after: customAfter }),
            );
      const rows = [...builtins, ...custom.map(toFlightSheet)];
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const next =
        rows.length > limit && last !== undefined
          ? encodeCursor({ created_at: last.created_at ?? BUILTIN_KEY, id: last.id })
          : null;
      return { items: page, next };
    },

    async get(actor: Actor, idOrSlug: string): Promise<FlightSheet> {
      const sheet = await storage.read((tx) => findFlightSheet(tx, actor.orgId, idOrSlug));
      if (!sheet) throw notFound('flight sheet');
      return sheet;
    },

    async create(actor: Actor, input: unknown): Promise<FlightSheet> {
      const owner = requireOwner(actor);
      const content = validateFlightSheetInput(input);
      if (BUILTIN_FLIGHT_SHEETS.some((s) => s.slug === content.slug)) {
        throw conflict(`the slug ${content.slug} belongs to a built-in flight sheet`);
      }
      const record: FlightSheetRecord = {
        id: newId('fs', random),
        org_id: owner.orgId,
        content,
        sha256: flightSheetSha256(content),
        created_at: nowIso(clock),
        created_by: actorId(owner),
      };
      await storage.write(async (tx) => {
        await tx.lock(lockKeys.flightSheet(owner.orgId, content.slug));
        const latest = await tx.flightSheets.latestBySlug(owner.orgId, content.slug);
        // Sheets are immutable: a change is a new, higher version.
        if (latest && compareVersions(content.version, latest.content.version) <= 0) {
          throw conflict(
            `flight sheet ${content.slug} is at version ${latest.content.version}; a new version must be higher`,
          );
        }
        await tx.flightSheets.insert(record);
        await recordAudit(
          tx,
          owner.orgId,
          auditActor(owner),
          {
            type: 'flight_sheet.published',
            flight_sheet_id: record.id,
            slug: content.slug,
            version: content.version,
            sha256: record.sha256,
            before: { version: latest?.content.version ?? null },
          },
          clock.now(),
        );
      });
      return toFlightSheet(record);
    },
  };
}
