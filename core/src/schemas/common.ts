import { z } from 'zod';

/** Lowercase hex SHA-256, as every hash in runledger is written. */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lowercase hex characters');

/** ISO 8601 UTC timestamp (the service writes milliseconds and a Z). */
export const Timestamp = z.iso.datetime();

/** Opaque paging cursor; null on the last page. */
export const NextCursor = z.string().nullable();
