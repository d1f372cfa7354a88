import { Writable } from 'node:stream';
import express from 'express';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { accessLog } from './access-log.js';
import { notFoundRoute } from './errors.js';
import { listen } from './listen.js';
import { requestEnvelope } from './request-envelope.js';

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
    app.use(requestEnvelope([accessLog(pino({}, sink))]));
    app.use(notFoundRoute);
    const server = await listen(app, 0, '127.0.0.1');
    try {
      const response = await fetch(`${server.url}/share/s3cr3t-token/typo?token=another-s3cr3t`, {
        headers: { 'x-request-id': 'req-42' },
      });
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('s3cr3t');
    } finally {
      await server.close();
    }
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(line).toMatchObject({
      msg: 'request',
      req_id: 'req-42',
      method: 'GET',
      route: '(unmatched)',
      status: 404,
    });
    expect(typeof line['duration_ms']).toBe('number');
    expect(line['duration_ms']).toBeGreaterThanOrEqual(0);
    expect(lines.join('')).not.toContain('s3cr3t');
  });
});
