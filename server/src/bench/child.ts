import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A port the OS says is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerChild {
  url: string;
  routerUrl: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `node [...nodeArgs] <main>` with `env` and waits until both listeners answer /health. */
export async function startServerChild(
  main: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ServerChild> {
  const port = await freePort();
  const routerPort = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, main], {
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      ROUTER_PORT: String(routerPort),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const routerUrl = `http://127.0.0.1:${routerPort}`;
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const up = await Promise.all(
      [url, routerUrl].map((base) =>
        fetch(`${base}/health`).then(
          (r) => r.ok,
          () => false,
        ),
      ),
    );
    if (up.every(Boolean)) break;
    if (attempt > 600) throw new Error('server did not start within a minute');
    await sleep(100);
  }
  return {
    url,
    routerUrl,
    process: child,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
