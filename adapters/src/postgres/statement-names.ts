/**
 * Which statements are prepared by name. pg parses a named statement once per connection and from
 * then on only binds and executes it, so PostgreSQL neither parses nor plans it again (it keeps a
 * generic plan once that is no worse than the custom ones). Like pgjdbc's defaults, a statement is
 * named from its fifth use in the pool and at most 256 are: statements that vary in shape (an `IN`
 * list per id count) and are rarely sent stay unnamed, parsed and planned each time, and a backend
 * holds at most 256 prepared statements (more only after `forget`, until its connection closes).
 */
export interface Statement {
  /** The dialect's text of the statement. */
  readonly text: string;
  /** The name it is prepared under, or undefined while it runs unnamed. */
  readonly name: string | undefined;
}

export interface StatementNamesOptions {
  nameFromUse: number;
  maxNamed: number;
  /** Distinct statements whose uses are counted; past it, a new statement stays unnamed. */
  maxKnown: number;
}

const DEFAULTS: StatementNamesOptions = { nameFromUse: 5, maxNamed: 256, maxKnown: 4096 };

interface Entry {
  text: string;
  name: string | undefined;
  uses: number;
}

export class StatementNames {
  private readonly entries = new Map<string, Entry>();
  private named = 0;
  private generation = 0;

  constructor(
    private readonly toText: (sql: string) => string,
    private readonly options: StatementNamesOptions = DEFAULTS,
  ) {}

  /** The statement to send for `sql`, counting this use. */
  use(sql: string): Statement {
    let entry = this.entries.get(sql);
    if (entry === undefined) {
      entry = { text: this.toText(sql), name: undefined, uses: 0 };
      if (this.entries.size < this.options.maxKnown) this.entries.set(sql, entry);
    }
    entry.uses += 1;
    if (
      entry.name === undefined &&
      entry.uses >= this.options.nameFromUse &&
      this.named < this.options.maxNamed
    ) {
      entry.name = `rl${this.generation}_${this.named}`;
      this.named += 1;
    }
    return { text: entry.text, name: entry.name };
  }

  /**
   * Drops every name, counts included: from now on statements go unnamed, then under new names that
   * no connection has prepared. For when a table changed under prepared statements (another
   * instance's migration): PostgreSQL refuses to run a `SELECT *` whose columns changed since it was
   * prepared, on every connection that prepared it. What the backends still hold under the old names
   * goes when their connections close.
   */
  forget(): void {
    this.entries.clear();
    this.named = 0;
    this.generation += 1;
  }
}
