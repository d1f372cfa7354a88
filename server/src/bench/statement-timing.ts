import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * Preloaded into the bench's server (`node --import`) by `bench:http --statements`: times every
 * better-sqlite3 statement between two SIGUSR2 signals, then writes the totals by connection and
 * SQL text, as JSON, to the file RUNLEDGER_BENCH_STATEMENTS names. The server never loads it
 * otherwise; statement texts carry `?` placeholders only, never a value.
 */

interface Timed {
  connection: 'writer' | 'reader';
  method: string;
  sql: string;
  calls: number;
  ns: bigint;
}

interface TimedStatement {
  source: string;
  database: { readonly: boolean };
}

const out = process.env['RUNLEDGER_BENCH_STATEMENTS'];
// better-sqlite3 is the adapters' dependency: it is loaded from where they load it.
const adapters = createRequire(import.meta.url).resolve('@runledger/adapters');
const Database = createRequire(adapters)('better-sqlite3') as new (file: string) => {
  prepare(sql: string): object;
  close(): void;
};
const probe = new Database(':memory:');
const statementPrototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<
  string,
  (...args: unknown[]) => unknown
>;
probe.close();

const totals = new Map<string, Timed>();
let startedAt: bigint | null = null;

for (const method of ['run', 'get', 'all'] as const) {
  const original = statementPrototype[method]!;
  statementPrototype[method] = function (this: TimedStatement, ...args: unknown[]) {
    if (startedAt === null) return original.apply(this, args);
    const began = process.hrtime.bigint();
    try {
      return original.apply(this, args);
    } finally {
      record(this, method, process.hrtime.bigint() - began);
    }
  };
}

function record(statement: TimedStatement, method: string, ns: bigint): void {
  const connection = statement.database.readonly ? 'reader' : 'writer';
  const key = `${connection} ${method} ${statement.source}`;
  const entry = totals.get(key) ?? { connection, method, sql: statement.source, calls: 0, ns: 0n };
  entry.calls += 1;
  entry.ns += ns;
  totals.set(key, entry);
}

process.on('SIGUSR2', () => {
  if (startedAt === null) {
    totals.clear();
    startedAt = process.hrtime.bigint();
    return;
  }
  const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
  startedAt = null;
  const statements = [...totals.values()].map(({ ns, ...rest }) => ({
    ...rest,
    ms: Number(ns) / 1e6,
  }));
  if (out !== undefined) writeFileSync(out, JSON.stringify({ seconds, statements }));
});
