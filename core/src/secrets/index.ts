export { MIN_SECRET_BYTES, newSecret, hashSecret, constantTimeEqual } from './secret.js';
export {
  API_KEY_PREFIX,
  API_KEY_ID,
  formatApiKey,
  parseApiKey,
  newApiKey,
  type ParsedApiKey,
  type NewApiKey,
} from './api-key.js';
