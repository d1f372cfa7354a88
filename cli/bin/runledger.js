#!/usr/bin/env node
// The file npm links as `runledger` at install time, before any build exists; the command is compiled to dist/.
import process from 'node:process';
import { URL } from 'node:url';

const entry = new URL('../dist/main.js', import.meta.url);
try {
  await import(entry.href);
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(entry.pathname)) {
    process.stderr.write(
      'runledger: the CLI is not built yet; run `npm run build` in the repository first\n',
    );
    process.exit(2);
  }
  throw error;
}
