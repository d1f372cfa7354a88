/**
 * Which statements may be written to the socket before the transaction's BEGIN has answered: a
 * plain SELECT, which changes nothing even if it were to run outside a transaction. Everything
 * else (INSERT, UPDATE, DELETE, DDL, a WITH that could hold a writing CTE) waits for BEGIN.
 * The statements are this package's own; none of its SELECTs calls a function that writes
 * (`pg_advisory_xact_lock` outside a transaction takes and drops its lock at once).
 */
const SENDABLE_BEFORE_BEGIN = /^\s*SELECT\b/i;

/** Sends one statement through `send`, now or once BEGIN has answered. */
export type Gate = <R>(text: string, send: () => Promise<R>) => Promise<R>;

/**
 * Lets a transaction's first statements travel with its BEGIN (one write, one round trip) without
 * giving up the rule that nothing may change the database unless BEGIN succeeded.
 *
 * While `begin` is pending, a SELECT is sent at once (pg's pipeline mode runs it after BEGIN, in
 * the order written) and any other statement is held. Once one statement is held, every later one
 * is held behind it, so statements still reach the server in the order they were sent. When BEGIN
 * answers, the held statements are sent in that order; if it failed, they are rejected with its
 * error and never sent, and so is every statement sent afterwards.
 */
export function beginGate(begin: Promise<unknown>): Gate {
  let state: 'pending' | 'begun' | 'failed' = 'pending';
  let failure: unknown;
  let held: (() => void)[] | null = null;
  const settle = () => {
    const waiting = held ?? [];
    held = null;
    for (const go of waiting) go();
  };
  begin.then(
    () => {
      state = 'begun';
      settle();
    },
    (error: unknown) => {
      state = 'failed';
      failure = error;
      settle();
    },
  );
  return <R>(text: string, send: () => Promise<R>): Promise<R> => {
    if (state === 'failed') return Promise.reject(failure as Error);
    if (held === null && (state === 'begun' || SENDABLE_BEFORE_BEGIN.test(text))) return send();
    return new Promise<R>((resolve, reject) => {
      (held ??= []).push(() => {
        if (state === 'failed') reject(failure as Error);
        else send().then(resolve, reject);
      });
    });
  };
}
