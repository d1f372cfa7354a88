import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './config.js';
import type { OpenApiDocument } from './http/openapi.js';
import { startServer } from './start.js';

export interface ServedDocuments {
  main: OpenApiDocument;
  router: OpenApiDocument;
}

async function fetchDocument(url: string): Promise<OpenApiDocument> {
  const response = await fetch(`${url}/openapi.json`);
  if (!response.ok) throw new Error(`GET ${url}/openapi.json answered ${response.status}`);
  return (await response.json()) as OpenApiDocument;
}

/**
 * Both /openapi.json documents exactly as served: starts the real server in this process (both
 * listeners on free loopback ports, a temporary DATA_DIR), fetches them, and stops it. What the
 * client generator and the OpenAPI lint read.
 */
export async function servedDocuments(): Promise<ServedDocuments> {
  const dataDir = await mkdtemp(join(tmpdir(), 'runledger-openapi-'));
  try {
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      ROUTER_PORT: '0',
      LOG_LEVEL: 'silent',
    });
    const server = await startServer(config);
    try {
      const [main, router] = await Promise.all([
        fetchDocument(server.url),
        fetchDocument(server.routerUrl),
      ]);
      return { main, router };
    } finally {
      await server.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
