/**
 * The named locks core takes with `WriteTransaction.lock` before reading what it will write on.
 * Every key is built here, namespaced by what it guards, so two call sites guarding the same thing
 * always agree on the key (docs/storage.md, "Concurrency contract", lists who takes which).
 * When a transaction takes several, it takes them in the order listed here (run mint before chain).
 */
export const lockKeys = {
  /**
   * A named fact of the deployment (`deployment_state`): two instances starting at once read and
   * change it one after the other, so a key rotation is recorded once.
   */
  deployment: (name: string) => `deployment:${name}`,
  /** The run's mint: one receipt per run, the second minter finds the first one's receipt. */
  runMint: (runId: string) => `run-mint:${runId}`,
  /** The organization's receipt chain head: one minter appends after it at a time, so no fork. */
  chain: (orgId: string) => `chain:${orgId}`,
  /**
   * A Merkle log of the organization other than `ledger` (whose appends hold `chain` already):
   * one appender at a time, so leaves take consecutive indexes (core/src/checkpoints/tree.ts).
   */
  merkleLog: (orgId: string, log: string) => `merkle-log:${orgId}:${log}`,
  /** The organization's owner count: demoting or removing an owner never leaves zero. */
  owners: (orgId: string) => `owners:${orgId}`,
  /** A user's e-mail: two sign-ins of one new address create one user. */
  user: (email: string) => `user:${email}`,
  /** A flight sheet slug of an organization: versions are published one at a time, each higher. */
  flightSheet: (orgId: string, slug: string) => `flight-sheet:${orgId}:${slug}`,
  /** A blob's references: an upload that fails never deletes bytes another upload now references. */
  blob: (sha256: string) => `blob:${sha256}`,
  /** A job's log numbering: lines are numbered after the current maximum. */
  jobLogs: (jobId: string) => `job-logs:${jobId}`,
  /** A router member's term: two activations at once both extend it, one after the other. */
  routerMember: (memberId: string) => `router-member:${memberId}`,
  /** A payment webhook event id: one delivery takes effect, the others find it recorded. */
  webhook: (eventId: string) => `webhook:${eventId}`,
  /**
   * The organization's audit chain head, its `audit` Merkle tree and its failed sign-in counters:
   * one audit receipt (and its leaf) is appended at a time. Taken last in any transaction, after
   * every other key (so the audit tree is ordered by this key, not by `merkleLog`).
   * A signing key rotation takes every organization's, in org id order (the only transaction taking
   * several).
   */
  auditChain: (orgId: string) => `audit-chain:${orgId}`,
} as const;
