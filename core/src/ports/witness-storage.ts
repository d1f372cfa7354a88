/**
 * Checkpoints witnesses cosigned (docs/witnesses.md). Per (organization, log): the checkpoint note
 * sent to the witnesses at each size, with every cosignature line received appended, and for each
 * witness the size it last cosigned (the old size of the next request to it).
 */
export interface WitnessedCheckpointRecord {
  org_id: string;
  log: string;
  size: number;
  /** The log's signed note followed by the witnesses' cosignature lines. */
  note: string;
  /** How many cosignature lines the note carries. */
  cosignatures: number;
  witnessed_at: string;
}

export interface WitnessedCheckpointsRepository {
  /** The witnessed checkpoint of greatest size, or null. */
  latest(orgId: string, log: string): Promise<WitnessedCheckpointRecord | null>;
  /** The witnessed checkpoint at exactly `size`, or null. */
  atSize(orgId: string, log: string, size: number): Promise<WitnessedCheckpointRecord | null>;
  /** Inserts, or replaces the note and count of the same (org, log, size). */
  save(record: WitnessedCheckpointRecord): Promise<void>;
  /** The size the witness (by vkey) last cosigned for this log, or null when it never did. */
  position(orgId: string, log: string, witness: string): Promise<number | null>;
  setPosition(orgId: string, log: string, witness: string, size: number, at: string): Promise<void>;
}
