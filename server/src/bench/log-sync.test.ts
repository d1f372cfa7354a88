import { describe, expect, it } from 'vitest';
import { logSyncText, logSyncWindow, syncBuckets } from './log-sync.js';

/** A scrape holding the histogram with these cumulative counts per bound (seconds). */
function scrape(counts: Array<[string, number]>): string {
  return [
    '# HELP runledger_storage_log_sync_seconds The log sync',
    '# TYPE runledger_storage_log_sync_seconds histogram',
    ...counts.map(([le, n]) => `runledger_storage_log_sync_seconds_bucket{le="${le}"} ${n}`),
    `runledger_storage_log_sync_seconds_count ${counts.at(-1)![1]}`,
    'runledger_storage_group_commit_seconds_bucket{le="0.025"} 999',
  ].join('\n');
}

const BOUNDS = ['0.001', '0.005', '0.025', '0.05', '0.1', '0.25', '+Inf'];
const cumulative = (perBucket: number[]) => {
  let total = 0;
  return BOUNDS.map((le, i): [string, number] => [le, (total += perBucket[i]!)]);
};

describe('the log syncs of one bench window', () => {
  it('reads only the log sync buckets, +Inf included', () => {
    const buckets = syncBuckets(scrape(cumulative([5, 1, 0, 0, 0, 0, 2])));
    expect([...buckets]).toEqual([
      [0.001, 5],
      [0.005, 6],
      [0.025, 6],
      [0.05, 6],
      [0.1, 6],
      [0.25, 6],
      [Infinity, 8],
    ]);
  });

  it('counts the window between two scrapes: slow syncs and the p99 bucket', () => {
    const before = syncBuckets(scrape(cumulative([100, 0, 0, 0, 0, 0, 0])));
    // In the window: 180 fast, 15 under 25 ms, 3 under 50 ms, 1 under 100 ms, 1 under 250 ms.
    const after = syncBuckets(scrape(cumulative([280, 15, 0, 3, 1, 1, 0])));
    const window = logSyncWindow(before, after)!;
    // 198 of 200 took at most 50 ms: the p99 falls in the 50 ms bucket.
    expect(window).toEqual({ syncs: 200, over_25ms: 5, over_100ms: 1, p99_at_most_ms: 50 });
    expect(logSyncText(window)).toBe('; log syncs p99 ≤ 50 ms, 5 over 25 ms, 1 over 100 ms of 200');
  });

  it('says nothing for a server without the histogram or a window without syncs', () => {
    const none = syncBuckets('runledger_http_requests_total 3');
    expect(logSyncWindow(none, none)).toBeNull();
    expect(logSyncText(null)).toBe('');
    const same = syncBuckets(scrape(cumulative([4, 0, 0, 0, 0, 0, 0])));
    expect(logSyncWindow(same, same)).toEqual({
      syncs: 0,
      over_25ms: 0,
      over_100ms: 0,
      p99_at_most_ms: null,
    });
    expect(logSyncText(logSyncWindow(same, same))).toBe('');
  });
});
