export * from './ports/index.js';
export * from './errors.js';
export * from './schemas/index.js';
export * from './sdk.js';
export * from './identity/index.js';
export * from './projects/index.js';
