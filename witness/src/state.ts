import Database from 'better-sqlite3';

/**
 * What a witness remembers: for each log origin, the latest checkpoint it cosigned (size, root and
 * the note itself, as evidence). SQLite in WAL mode with synchronous FULL: a cosignature is answered
 * only after its checkpoint is durable, so a restart never forgets what was cosigned.
 */
export interface LatestCheckpoint {
  size: number;
  rootHash: Uint8Array;
}

export interface WitnessState {
  latest(origin: string): LatestCheckpoint | undefined;
  /**
   * Runs `decide` on the origin's latest checkpoint and stores what it returns, in one immediate
   * transaction, so a check and its update cannot interleave with another request's (no rollback
   * of a larger size by a slower, smaller one).
   */
  update<T>(
    origin: string,
    decide: (latest: LatestCheckpoint | undefined) => {
      store?: LatestCheckpoint & { note: string };
      result: T;
    },
  ): T;
  close(): void;
}

export function openWitnessState(file: string): WitnessState {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE IF NOT EXISTS latest_checkpoints (
    origin TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    root_hash BLOB NOT NULL,
    note TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT`);
  const select = db.prepare<[string], { size: number; root_hash: Buffer }>(
    'SELECT size, root_hash FROM latest_checkpoints WHERE origin = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO latest_checkpoints (origin, size, root_hash, note, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (origin) DO UPDATE SET size = excluded.size, root_hash = excluded.root_hash,
       note = excluded.note, updated_at = excluded.updated_at`,
  );
  const latest = (origin: string): LatestCheckpoint | undefined => {
    const row = select.get(origin);
    return row === undefined
      ? undefined
      : { size: row.size, rootHash: new Uint8Array(row.root_hash) };
  };
  return {
    latest,
    update(origin, decide) {
      const run = db.transaction(() => {
        const { store, result } = decide(latest(origin));
        if (store !== undefined) {
          upsert.run(
            origin,
            store.size,
            Buffer.from(store.rootHash),
            store.note,
            new Date().toISOString(),
          );
        }
        return result;
      });
      return run.immediate();
    },
    close: () => db.close(),
  };
}
