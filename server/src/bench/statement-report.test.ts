import { describe, expect, it } from 'vitest';
import { statementReport, type StatementTotals } from './statement-report.js';

const totals = (statements: StatementTotals['statements']): StatementTotals => ({
  seconds: 5,
  statements,
});

describe('the statement report of bench:http --statements', () => {
  it('counts IN lists and VALUES rows of any length as one statement, per connection and method', () => {
    const lines = statementReport(
      totals([
        {
          connection: 'writer',
          method: 'all',
          sql: 'SELECT * FROM runs WHERE id IN (?)',
          calls: 3,
          ms: 3,
        },
        {
          connection: 'writer',
          method: 'all',
          sql: 'SELECT *\n  FROM runs WHERE id IN (?, ?, ?)',
          calls: 1,
          ms: 2,
        },
        {
          connection: 'reader',
          method: 'all',
          sql: 'SELECT * FROM runs WHERE id IN (?, ?)',
          calls: 2,
          ms: 1,
        },
        {
          connection: 'writer',
          method: 'run',
          sql: 'INSERT INTO t (a, b) VALUES (?, ?), (?, ?)',
          calls: 4,
          ms: 8,
        },
        {
          connection: 'writer',
          method: 'run',
          sql: 'INSERT INTO t (a, b) VALUES (?, ?)',
          calls: 6,
          ms: 2,
        },
      ]),
      1000,
    );
    expect(lines).toEqual([
      { statement: 'writer run INSERT INTO t (a, b) VALUES (…)', calls: 10, us_per_mint: 10 },
      { statement: 'writer all SELECT * FROM runs WHERE id IN (…)', calls: 4, us_per_mint: 5 },
      { statement: 'reader all SELECT * FROM runs WHERE id IN (…)', calls: 2, us_per_mint: 1 },
    ]);
  });

  it('divides by one mint at least: a window without mints still reports its statements', () => {
    const [line] = statementReport(
      totals([{ connection: 'writer', method: 'run', sql: 'COMMIT', calls: 2, ms: 0.5 }]),
      0,
    );
    expect(line).toEqual({ statement: 'writer run COMMIT', calls: 2, us_per_mint: 500 });
  });
});
