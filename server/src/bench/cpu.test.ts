import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  processCpuSeconds,
  processesCpuSeconds,
  reapedChildrenSeconds,
  statSeconds,
} from './cpu.js';

describe('CPU time from /proc', () => {
  it('reads utime and stime after the command, whatever the command name holds', () => {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
    const line = '4242 (a (b) c) S 1 4242 4242 0 -1 4194304 10 0 0 0 250 75 0 0 20 0 1 0';
    expect(statSeconds(line)).toBeCloseTo(3.25, 10);
    expect(reapedChildrenSeconds(line)).toBe(0);
    const parent = '1 (postgres) S 0 1 1 0 -1 4194560 10 0 0 0 250 75 3000 500 20 0 1 0';
    expect(reapedChildrenSeconds(parent)).toBeCloseTo(35, 10);
  });

  it.runIf(process.platform === 'linux')(
    "agrees with the process's own count and finds this process among those of its name",
    async () => {
      let x = 0;
      for (let i = 0; i < 5_000_000; i += 1) x += Math.sqrt(i);
      expect(x).toBeGreaterThan(0);
      const usage = process.cpuUsage();
      const own = (usage.user + usage.system) / 1e6;
      const fromProc = await processCpuSeconds(process.pid);
      // /proc counts in ticks of 10 ms; the two reads are a few microseconds apart.
      expect(fromProc).not.toBeNull();
      expect(Math.abs(fromProc! - own)).toBeLessThan(0.05);
      const name = (await readFile(`/proc/${process.pid}/comm`, 'utf8')).trim();
      expect(await processesCpuSeconds(name)).toBeGreaterThanOrEqual(fromProc!);
      expect(await processCpuSeconds(2 ** 30)).toBeNull();
    },
  );

  it.runIf(process.platform === 'linux')(
    'keeps counting the CPU of a process of that name once it has ended (the sum never falls)',
    async () => {
      // A parent of a name no other process has (other node processes on a busy machine come and
      // go) starts a child of the same name that burns about half a second of CPU, reaps it, and
      // says so; the parent then waits to be killed.
      const name = `rlcpu${process.pid}`.slice(0, 15);
      const burn = `process.title = ${JSON.stringify(name)}; const end = process.cpuUsage().user + 500000; while (process.cpuUsage().user < end);`;
      const parentScript = `process.title = ${JSON.stringify(name)};
        process.stdin.once('data', () => {
          const { spawnSync } = require('node:child_process');
          const child = spawnSync(process.execPath, ['-e', ${JSON.stringify(burn)}]);
          process.stdout.write(child.status === 0 ? 'reaped\\n' : 'failed\\n');
        });
        process.stdout.write('ready\\n');`;
      const parent = spawn(process.execPath, ['-e', parentScript], { stdio: 'pipe' });
      try {
        const lines = createInterface({ input: parent.stdout! })[Symbol.asyncIterator]();
        expect((await lines.next()).value).toBe('ready');
        const before = (await processesCpuSeconds(name))!;
        parent.stdin!.write('go\n');
        expect((await lines.next()).value).toBe('reaped');
        const after = (await processesCpuSeconds(name))!;
        expect(after - before).toBeGreaterThanOrEqual(0.4);
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );
});
