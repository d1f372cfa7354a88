export { SHA256_BACKEND, SHA256_HEX, sha256, sha256Hex } from './sha256.js';
export { fromHex, toHex } from './hex.js';
