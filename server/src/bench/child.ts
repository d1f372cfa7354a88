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
  const url = `http://127.0.0.1:${port}`;
  const routerUrl = `http://127.0.0.1:${routerPort}`;
  const stop = await untilUp(child, [url, routerUrl]);
  return { url, routerUrl, process: child, stop };
}

/** Waits until every base URL answers /health; then the child's stop (SIGTERM, then its exit). */
async function untilUp(child: ChildProcess, bases: string[]): Promise<() => Promise<void>> {
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const up = await Promise.all(
      bases.map((base) =>
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
  return async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
}

/**
 * The platform's HTTP floor: node:http alone, in its own process, answering every request with the
 * same small JSON body as /health (no framework, no middleware, no storage).
 */
const BARE_SERVER = `require('node:http')
  .createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end('{"status":"ok"}');
  })
  .listen(Number(process.env.PORT), '127.0.0.1');`;

/** Starts the bare node:http server (BARE_SERVER) as a child process and waits until it answers. */
export async function startBareHttpChild(): Promise<{
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', BARE_SERVER], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  return { url, process: child, stop: await untilUp(child, [url]) };
}
