import type { FlightSheet } from '../schemas/flight-sheet.js';
import agentTaskReport from './builtin/agent-task-report.json' with { type: 'json' };
import invoiceExtraction from './builtin/invoice-extraction.json' with { type: 'json' };
import supportReply from './builtin/support-reply.json' with { type: 'json' };
import { flightSheetSha256 } from './sha256.js';
import { validateFlightSheetInput } from './validate.js';

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

/** A built-in sheet file is a FlightSheetInput plus its stable id; it is validated like an owner's. */
function load(file: { id: string }): FlightSheet {
  const { id, ...content } = file;
  const sheet = validateFlightSheetInput(content);
  return deepFreeze({
    id,
    ...sheet,
    sha256: flightSheetSha256(sheet),
    builtin: true,
    created_at: null,
  });
}

/** The flight sheets that ship with runledger: versioned and immutable (a change is a new version and file). */
export const BUILTIN_FLIGHT_SHEETS: readonly FlightSheet[] = Object.freeze([
  load(agentTaskReport),
  load(supportReply),
  load(invoiceExtraction),
]);
