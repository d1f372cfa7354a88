export * from './ports/index.js';
