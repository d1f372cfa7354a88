export { ledgerUseCases, LEDGER_CHUNK } from './use-cases.js';
