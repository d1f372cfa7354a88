import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

interface Project {
  id: string;
  name: string;
}

// JSON answers: a GET carries an ETag and answers 304 to it; any other method's answer is written
// without one (docs/http.md), with the same type, length and body res.json would give.
describe('JSON answers', () => {
  let server: TestServer;
  let api: Api;
  let ada: SignedIn;

  beforeAll(async () => {
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    ada = await signIn(api, 'ada@example.com');
  });
  afterAll(() => server.close());

  it('writes a POST answer without an ETag, its Content-Length in bytes', async () => {
    const name = 'Überprüfung ✓ 報告';
    const created = await fetch(`${server.url}/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ada.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    const bytes = Buffer.from(await created.arrayBuffer());
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(created.headers.get('etag')).toBeNull();
    expect(Number(created.headers.get('content-length'))).toBe(bytes.length);
    const project = JSON.parse(bytes.toString('utf8')) as Project;
    expect(project.name).toBe(name);
    expect(created.headers.get('x-content-type-options')).toBe('nosniff');

    const read = await api<Project>('GET', `/projects/${project.id}`, { token: ada.token });
    expect(read.body).toEqual(project);
  });

  it('gives a GET answer an ETag and answers 304 when it still matches', async () => {
    const created = await api<Project>('POST', '/projects', {
      token: ada.token,
      body: { name: 'reports' },
    });
    const first = await api('GET', `/projects/${created.body.id}`, { token: ada.token });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);
    // node:http, not fetch: fetch adds `Cache-Control: no-cache` to a conditional request.
    const again = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/projects/${created.body.id}`, {
        headers: { authorization: `Bearer ${ada.token}`, 'if-none-match': etag! },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(again).toBe(304);
  });
});
