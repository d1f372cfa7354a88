export { authUseCases } from './auth.js';
export { orgUseCases, toInvite, toMember } from './orgs.js';
export { apiKeyUseCases, toApiKey } from './api-keys.js';
export { normalizeEmail } from './email.js';
export { newId, base32, type IdPrefix } from './ids.js';
export {
  DEFAULT_PAGE_LIMIT,
  MAX_PAGE_LIMIT,
  decodeCursor,
  encodeCursor,
  pageQuery,
  toPaged,
} from './paging.js';
