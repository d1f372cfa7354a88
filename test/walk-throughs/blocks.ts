/**
 * The fenced blocks of a Markdown page, in order. The info string says what a block is
 * (docs/design.md#walk-throughs):
 * - `sh`: a walk-through step, run as written;
 * - `sh server`: a step that starts a server and keeps it running (the walk-through's first terminal);
 * - `sh-illustration`, `console`, `text`, `json`…: shown, never run.
 */
export interface Block {
  info: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The `## ` heading the block sits under ('' before the first). */
  section: string;
}

export function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const heading = /^## (.+)$/.exec(lines[i]!);
    if (heading) section = heading[1]!.trim();
    const open = /^( *)```(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !/^ *```\s*$/.test(lines[j]!); j++)
      body.push(lines[j]!.slice(indent));
    blocks.push({ info: open[2]!.trim(), code: body.join('\n') + '\n', line: i + 1, section });
    i = j;
  }
  return blocks;
}

/**
 * `<!-- walk-through: after README.md "Five minutes with the CLI" -->`: the page continues the
 * walk-through of that section of another page, which runs first.
 */
export function continuesFrom(markdown: string): { page: string; section: string } | null {
  const found = /<!-- walk-through: after (\S+) "([^"]+)" -->/.exec(markdown);
  return found ? { page: found[1]!, section: found[2]! } : null;
}
