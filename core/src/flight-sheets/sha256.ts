import { canonicalJson } from '@runledger/verify';
import { sha256Hex } from '@runledger/verify/hash';
import { FlightSheetInput } from '../schemas/flight-sheet.js';

const CONTENT_KEYS = FlightSheetInput.keyof().options;

/** The hashed part of a sheet: FlightSheetInput's fields, never id, sha256, builtin or created_at. */
export function flightSheetContent(sheet: FlightSheetInput): FlightSheetInput {
  const content: Record<string, unknown> = {};
  for (const key of CONTENT_KEYS) content[key] = sheet[key];
  // Serializing to JSON and back drops keys whose value is undefined, which canonical JSON would reject.
  return JSON.parse(JSON.stringify(content)) as FlightSheetInput;
}

/** sha256 of the canonical JSON of the sheet's content; a run pins it with the version. */
export function flightSheetSha256(sheet: FlightSheetInput): string {
  return sha256Hex(canonicalJson(flightSheetContent(sheet)));
}
