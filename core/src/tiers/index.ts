export { tierOf, TIER_WEIGHT } from './tier-of.js';
