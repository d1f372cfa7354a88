export { BUILTIN_FLIGHT_SHEETS } from './builtin.js';
export { flightSheetContent, flightSheetSha256 } from './sha256.js';
export { validateFlightSheetInput } from './validate.js';
export {
  flightSheetUseCases,
  findFlightSheet,
  pinnedFlightSheet,
  toFlightSheet,
  compareVersions,
} from './use-cases.js';
