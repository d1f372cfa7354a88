import { writeFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import type { OpenAPI3 } from 'openapi-typescript';
import { GENERATED_FILES, generateClientSources, type ApiName } from './sources.js';

/**
 * `npm run generate:client`: reads `{"main": …, "router": …}` (the served documents, printed by
 * `node server/dist/print-openapi.js`) on stdin and rewrites cli/src/generated/*.ts from them.
 */
const cliRoot = fileURLToPath(new URL('../../', import.meta.url));
const documents = JSON.parse(await text(process.stdin)) as Record<ApiName, OpenAPI3>;
const sources = await generateClientSources(documents, `${cliRoot}src/generated/main-api.ts`);
for (const api of Object.keys(GENERATED_FILES) as ApiName[]) {
  const file = `${cliRoot}${GENERATED_FILES[api]}`;
  await writeFile(file, sources[api]);
  console.log(`wrote ${file}`);
}
