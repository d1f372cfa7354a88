export * from './ports/index.js';
export * from './errors.js';
export * from './schemas/index.js';
