/**
 * The write-ahead log's syncs during one bench window, from two scrapes of the server's
 * `runledger_storage_log_sync_seconds` histogram (SQLite; docs/operations.md). A durable mint
 * waits for its batch's sync, and every mint that arrives during a slow sync waits with it: when
 * the disk stalls, the mint's tail is the stall, whatever the CPU does.
 */
export interface LogSyncWindow {
  syncs: number;
  /** Syncs slower than 25 ms, and than 100 ms (bucket bounds of the histogram). */
  over_25ms: number;
  over_100ms: number;
  /** The bucket bound the window's 99th-percentile sync falls under (null without syncs). */
  p99_at_most_ms: number | null;
}

/** Cumulative bucket counts by upper bound in seconds (`+Inf` as Infinity), from the text format. */
export type SyncBuckets = Map<number, number>;

const BUCKET = /^runledger_storage_log_sync_seconds_bucket\{le="([^"]+)"\} (\S+)$/;

/** The histogram's buckets in a Prometheus text scrape; empty when the server has none (PostgreSQL). */
export function syncBuckets(metricsText: string): SyncBuckets {
  const buckets: SyncBuckets = new Map();
  for (const line of metricsText.split('\n')) {
    const match = BUCKET.exec(line);
    if (match === null) continue;
    buckets.set(match[1] === '+Inf' ? Infinity : Number(match[1]), Number(match[2]));
  }
  return buckets;
}

/** What happened between two scrapes; null when the server keeps no such histogram. */
export function logSyncWindow(before: SyncBuckets, after: SyncBuckets): LogSyncWindow | null {
  if (after.size === 0) return null;
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const inWindow = (bound: number) => (after.get(bound) ?? 0) - (before.get(bound) ?? 0);
  const syncs = inWindow(Infinity);
  const atMost = (seconds: number) => inWindow(bounds.find((b) => b >= seconds) ?? Infinity);
  const p99 = bounds.find((b) => inWindow(b) >= 0.99 * syncs);
  return {
    syncs,
    over_25ms: syncs - atMost(0.025),
    over_100ms: syncs - atMost(0.1),
    p99_at_most_ms: syncs === 0 || p99 === undefined ? null : p99 * 1000,
  };
}

/** `log syncs: p99 ≤ 5 ms, 3 over 25 ms, 1 over 100 ms of 812` for the bench's table. */
export function logSyncText(window: LogSyncWindow | null): string {
  if (window === null || window.syncs === 0) return '';
  const p99 = window.p99_at_most_ms === null ? '?' : `≤ ${window.p99_at_most_ms} ms`;
  return `; log syncs p99 ${p99}, ${window.over_25ms} over 25 ms, ${window.over_100ms} over 100 ms of ${window.syncs}`;
}
