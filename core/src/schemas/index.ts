export * from './enums.js';
export * from './identity.js';
