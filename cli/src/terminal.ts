/** What the CLI knows about where its output goes: a terminal (for people) or a pipe or file (for scripts). */

export interface Stream {
  isTTY?: boolean | undefined;
  write(text: string): unknown;
}

export type Env = Record<string, string | undefined>;

export const isTerminal = (stream: Stream): boolean => stream.isTTY === true;

/** Colour only on a terminal, and never when NO_COLOR is set to anything non-empty (no-color.org). */
export const colorOn = (stream: Stream, env: Env = process.env): boolean =>
  isTerminal(stream) && !env.NO_COLOR && env.TERM !== 'dumb';

const SGR = { bold: 1, red: 31, green: 32, yellow: 33, dim: 2 } as const;
export type Style = keyof typeof SGR;

/** `text` in `style` when `stream` takes colour, else `text` unchanged. */
export const paint = (
  stream: Stream,
  style: Style,
  text: string,
  env: Env = process.env,
): string => (colorOn(stream, env) ? `\u001b[${SGR[style]}m${text}\u001b[0m` : text);
