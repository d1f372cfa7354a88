import { readFile, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

/** What statement-timing.ts writes: totals by connection, method and SQL text over one window. */
export interface StatementTotals {
  seconds: number;
  statements: { connection: string; method: string; sql: string; calls: number; ms: number }[];
}

/** One line of the report: a statement's shape, its calls and microseconds per mint. */
export interface StatementLine {
  statement: string;
  calls: number;
  us_per_mint: number;
}

/**
 * `bench:http --statements`: the server child preloads statement-timing.ts, which times every
 * SQLite statement between two SIGUSR2 signals; the bench sends them around the first open-loop
 * rate's window and reports each statement's microseconds per mint (SQLite only).
 */
export function statementTiming(file: string) {
  const preload = fileURLToPath(new URL('./statement-timing.js', import.meta.url));
  return {
    nodeArgs: [`--import=${preload}`],
    env: { RUNLEDGER_BENCH_STATEMENTS: file },
    start: async (pid: number) => {
      await rm(file, { force: true });
      process.kill(pid, 'SIGUSR2');
    },
    stop: async (pid: number, mints: number): Promise<StatementLine[]> => {
      process.kill(pid, 'SIGUSR2');
      return statementReport(await written(file), mints);
    },
  };
}

/** The totals once the server has written them (it does so as it handles the signal). */
async function written(file: string): Promise<StatementTotals> {
  for (let waited = 0; ; waited += 50) {
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text !== null) return JSON.parse(text) as StatementTotals;
    if (waited > 10_000) throw new Error(`no statement timings in ${file}`);
    await sleep(50);
  }
}

/** Statements grouped by shape (an IN list or VALUES rows of any length count as one), largest first. */
export function statementReport(totals: StatementTotals, mints: number): StatementLine[] {
  const lines = new Map<string, StatementLine>();
  for (const s of totals.statements) {
    const shape = s.sql
      .replace(/\s+/g, ' ')
      .replace(/IN \((\?, )*\?\)/g, 'IN (…)')
      .replace(/VALUES (\((\?, )*\?\)(, )?)+/g, 'VALUES (…)');
    const statement = `${s.connection} ${s.method} ${shape}`;
    const line = lines.get(statement) ?? { statement, calls: 0, us_per_mint: 0 };
    line.calls += s.calls;
    line.us_per_mint += (s.ms * 1000) / Math.max(1, mints);
    lines.set(statement, line);
  }
  return [...lines.values()].sort((a, b) => b.us_per_mint - a.us_per_mint);
}
