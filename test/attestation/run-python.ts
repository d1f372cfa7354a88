import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./verify_dsse.py', import.meta.url));

/** Debian's python3 has securesystemslib 0.26 (the `python3` on PATH may be another one without it). */
export function runPython(
  args: readonly string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile('/usr/bin/python3', [SCRIPT, ...args], (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}
