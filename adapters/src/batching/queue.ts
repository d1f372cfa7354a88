import type { Settled } from '@runledger/core/ports';

interface Waiting<A, R> {
  ask: A;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

export interface QueueOptions {
  /** Asks per batch at most. */
  max: number;
  /**
   * When an idle key's first ask starts its batch: at once (`now`), or once the current turn of the
   * event loop has run (`turn`), so asks that arrive in the same turn (requests parsed from one
   * read of the sockets) start together.
   */
  start: 'now' | 'turn';
}

/**
 * Storage's one batching mechanism, with no timer: an idle key's first ask starts a batch (at once,
 * or after the current turn: `start`); asks for that key arriving while it runs wait and go
 * together into the next one (at most `max` each), so a batch is as large as the load makes it and
 * an idle key costs no wait. `run` settles every ask of its batch, one outcome per ask in order; if
 * it throws, every ask of the batch fails with that error. Batches of one key run one after
 * another, never two at once; different keys run independently. Every batched path of the storage
 * adapters goes through it: the SQLite writer's group commit and the port's `writeBatches` and
 * `readBatches` (storage-batches.ts); its limits come from where storage is opened.
 */
export class BatchQueue<A, R> {
  private readonly queues = new Map<string, Waiting<A, R>[]>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;
  /** Batches run and asks in them, for tests and the bench. */
  readonly stats = { batches: 0, asks: 0 };

  constructor(
    private readonly options: QueueOptions,
    private readonly run: (key: string, asks: readonly A[]) => Promise<readonly Settled<R>[]>,
  ) {
    if (!(options.max >= 1)) throw new Error(`a batch holds at least one ask, not ${options.max}`);
  }

  submit(key: string, ask: A): Promise<R> {
    if (this.closed) return Promise.reject(new Error('storage is closed'));
    return new Promise<R>((resolve, reject) => {
      const waiting = this.queues.get(key);
      if (waiting !== undefined) {
        waiting.push({ ask, resolve, reject });
        return;
      }
      const queue: Waiting<A, R>[] = [{ ask, resolve, reject }];
      this.queues.set(key, queue);
      const started =
        this.options.start === 'now'
          ? this.drain(key, queue)
          : new Promise<void>((turn) => setImmediate(turn)).then(() => this.drain(key, queue));
      this.running.add(started);
      void started.finally(() => this.running.delete(started));
    });
  }

  /** Settles what is queued, then refuses new asks. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.running.size > 0) await Promise.all(this.running);
  }

  private async drain(key: string, queue: Waiting<A, R>[]): Promise<void> {
    while (queue.length > 0) await this.settle(key, queue.splice(0, this.options.max));
    this.queues.delete(key);
  }

  private async settle(key: string, batch: Waiting<A, R>[]): Promise<void> {
    let outcomes: readonly Settled<R>[];
    try {
      outcomes = await this.run(
        key,
        batch.map((w) => w.ask),
      );
      if (outcomes.length !== batch.length) {
        throw new Error(`a batch of ${batch.length} asks settled ${outcomes.length}`);
      }
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
      return;
    }
    this.stats.batches += 1;
    this.stats.asks += batch.length;
    batch.forEach((waiting, i) => {
      const outcome = outcomes[i]!;
      if (outcome.ok) waiting.resolve(outcome.value);
      else waiting.reject(outcome.error);
    });
  }
}
