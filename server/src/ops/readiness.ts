/** One thing the server needs to serve: `check` resolves when it is usable and throws when it is not. */
export interface ReadinessProbe {
  name: string;
  check(): Promise<void>;
}

export type ReadinessState = 'starting' | 'ready' | 'draining';

/** What GET /ready answers: ready, or the names of what is not. */
export type ReadinessAnswer = { ready: true } | { ready: false; notReady: string[] };

/**
 * The server's readiness (docs/operations.md, "Readiness"): `starting` until start-up is done,
 * `draining` from SIGTERM on, and in between ready only when every named probe passes. A failing
 * probe's error goes to `onFailure` (the log), never to the client: it may name hosts or paths.
 */
export class Readiness {
  private state: ReadinessState = 'starting';

  constructor(
    private readonly probes: readonly ReadinessProbe[],
    private readonly onFailure: (probe: string, error: unknown) => void,
  ) {}

  get current(): ReadinessState {
    return this.state;
  }

  markReady(): void {
    if (this.state === 'starting') this.state = 'ready';
  }

  markDraining(): void {
    this.state = 'draining';
  }

  async check(): Promise<ReadinessAnswer> {
    if (this.state !== 'ready') return { ready: false, notReady: [this.state] };
    const results = await Promise.all(
      this.probes.map(async (probe) => {
        try {
          await probe.check();
          return null;
        } catch (error) {
          this.onFailure(probe.name, error);
          return probe.name;
        }
      }),
    );
    const notReady = results.filter((name): name is string => name !== null);
    return notReady.length === 0 ? { ready: true } : { ready: false, notReady };
  }
}
