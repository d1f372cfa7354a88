import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { servedDocuments } from './served-documents.js';

/**
 * `node server/dist/print-openapi.js`: prints `{"main": …, "router": …}`, both served documents, on
 * stdout (what `npm run generate:client` reads); with `--out DIR`, writes DIR/main.json and
 * DIR/router.json instead (what `npm run lint:openapi` lints).
 */
const documents = await servedDocuments();
const out = process.argv.indexOf('--out');
if (out >= 0 && process.argv[out + 1]) {
  const dir = process.argv[out + 1]!;
  await writeFile(join(dir, 'main.json'), JSON.stringify(documents.main, null, 2));
  await writeFile(join(dir, 'router.json'), JSON.stringify(documents.router, null, 2));
} else {
  process.stdout.write(`${JSON.stringify(documents, null, 2)}\n`);
}
