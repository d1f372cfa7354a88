/** One configured witness (WITNESSES): where it listens and its cosigner vkey. */
export interface WitnessEndpoint {
  url: string;
  vkey: string;
}

/** A witness's answer to a C2SP tlog-witness add-checkpoint request. */
export interface WitnessReply {
  status: number;
  contentType: string | null;
  body: string;
}

/**
 * Talks to witnesses over HTTP (adapters/src/witness). A network failure or timeout rejects; every
 * HTTP answer resolves, whatever its status.
 */
export interface WitnessClient {
  addCheckpoint(witness: WitnessEndpoint, body: string): Promise<WitnessReply>;
}
