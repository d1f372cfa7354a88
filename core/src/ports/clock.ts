/** The only source of "now" for the core; adapters pass the system clock, tests a fixed one. */
export interface Clock {
  now(): Date;
}
