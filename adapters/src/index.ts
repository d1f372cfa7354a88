export * from './sqlite/index.js';
export * from './mail/index.js';
export { cryptoRandom, systemClock } from './system.js';
