import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { accessLog } from './access-log.js';
import { notFoundRoute } from './errors.js';
import { listen } from './listen.js';

describe('access log', () => {
  it('logs an unmatched path as "(unmatched)", never the path or query that may carry a token', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = express();
    app.use(accessLog(pino({}, sink)));
    app.use(notFoundRoute);
    const server = await listen(app, 0, '127.0.0.1');
    try {
      const response = await fetch(`${server.url}/share/s3cr3t-token/typo?token=another-s3cr3t`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('s3cr3t');
    } finally {
      await server.close();
    }
    const logged = lines.join('');
    expect(logged).toContain('"route":"(unmatched)"');
    expect(logged).toContain('"status":404');
    expect(logged).not.toContain('s3cr3t');
  });
});
