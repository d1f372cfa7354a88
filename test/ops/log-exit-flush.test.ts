import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const LOGGER = pathToFileURL(resolve(import.meta.dirname, '../../server/dist/logger.js')).href;
const LINES = 2000;

/**
 * Runs a process that logs LINES lines through the server's default logger (JSON lines on stdout,
 * written asynchronously) as fast as it can, then ends with `ending` in the same tick: far more
 * than one asynchronous write can carry before the exit.
 */
function logThenEnd(ending: string): Promise<{ code: number | null; stdout: string }> {
  const script = `
    const { createLogger } = await import(${JSON.stringify(LOGGER)});
    const logger = createLogger('info');
    for (let i = 0; i < ${LINES}; i += 1) logger.info({ n: i, pad: 'x'.repeat(200) }, 'line');
    ${ending}
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  return new Promise((done) => child.on('close', (code) => done({ code, stdout })));
}

const numbers = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { n: number }).n);

describe('the JSON log on stdout', () => {
  it('writes every buffered line when the process calls process.exit', async () => {
    const { code, stdout } = await logThenEnd('process.exit(0);');
    expect(code).toBe(0);
    expect(numbers(stdout)).toEqual(Array.from({ length: LINES }, (_, i) => i));
  });

  it('writes every buffered line when the process dies of an uncaught error', async () => {
    const { code, stdout } = await logThenEnd("throw new Error('boom');");
    expect(code).toBe(1);
    expect(numbers(stdout)).toEqual(Array.from({ length: LINES }, (_, i) => i));
  });
});
