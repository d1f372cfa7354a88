export { shareUseCases, toPublicReceipt } from './use-cases.js';
