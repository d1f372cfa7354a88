#!/usr/bin/env node
// `runledger-server`: what `npm start` runs after the build (server/dist/main.js), configured by the
// same environment. npm links this file at install time, before any build exists in a checkout.
import process from 'node:process';
import { URL } from 'node:url';

const entry = new URL('../dist/main.js', import.meta.url);
try {
  await import(entry.href);
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(entry.pathname)) {
    process.stderr.write(
      'runledger-server: the server is not built yet; run `npm run build` in the repository first\n',
    );
    process.exit(2);
  }
  throw error;
}
