export { computeVerdict } from './compute.js';
