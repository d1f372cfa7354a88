import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { GENERATED_FILES, generateClientSources, type ApiName } from './sources.js';

/** `npm run generate:client`: rewrites cli/src/generated/*.ts from what the current server serves. */
const cliRoot = fileURLToPath(new URL('../../', import.meta.url));
const sources = await generateClientSources(`${cliRoot}src/generated/main-api.ts`);
for (const api of Object.keys(GENERATED_FILES) as ApiName[]) {
  const file = `${cliRoot}${GENERATED_FILES[api]}`;
  await writeFile(file, sources[api]);
  console.log(`wrote ${file}`);
}
