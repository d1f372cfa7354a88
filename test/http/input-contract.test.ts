import { connect } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { engines } from '../helpers/postgres.js';
import { lease, newJob, newMember, newWorker, REGISTRATION_KEY } from '../helpers/router.js';
import { AGENT_REPORT, decide, mint, newProject, newRun, sharePath } from '../helpers/runs.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

/**
 * The request-wide input rules (docs/http.md, "What a request may contain") on both APIs and both
 * engines: each class of bad input is a 400, 413 or 415 with a detail, never a 5xx, and the same
 * answer on SQLite and PostgreSQL.
 */

/** `{"a":{"a":…{}…}}` nested `levels` deep (the outermost object counts as one). */
const nested = (levels: number, leaf = '{}') =>
  `${'{"a":'.repeat(levels - 1)}${leaf}${'}'.repeat(levels - 1)}`;

describe.each(engines)('the input contract on %s', (engine) => {
  let server: TestServer;
  let main: Api;
  let router: Api;
  let owner: SignedIn;
  let projectId: string;
  let runId: string;
  let memberId: string;
  let worker: { worker_id: string; worker_token: string };

  beforeAll(async () => {
    server = await startTestServer({ WORKER_REGISTRATION_KEY: REGISTRATION_KEY }, { engine });
    ({ api: main } = await apiClient(server.url));
    ({ api: router } = await apiClient(server.routerUrl));
    owner = await signIn(main, 'ada@example.com');
    projectId = await newProject(main, owner.token);
    runId = await newRun(main, owner.token, projectId);
    memberId = await newMember(router);
    worker = await newWorker(router);
  }, 60_000);
  afterAll(() => server?.close());

  /** A raw request, bytes and headers as given; the answer must be a declared client error. */
  async function raw(
    base: string,
    method: string,
    path: string,
    body: Buffer | string,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; detail: string }> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${owner.token}`,
        ...headers,
      },
      body,
    });
    const answer = (await response.json()) as { detail: string };
    expect(Object.keys(answer)).toEqual(['detail']);
    return { status: response.status, detail: answer.detail };
  }

  describe('NUL', () => {
    it.each([
      ['a project name', '/projects', () => ({ name: 'a\u0000b' }), 'body.name'],
      ['an API key name', '/org/api-keys', () => ({ name: 'a\u0000b' }), 'body.name'],
      [
        'a run title',
        '/runs',
        () => ({ project_id: projectId, flight_sheet_id: 'agent-task-report', title: '\u0000' }),
        'body.title',
      ],
    ])('refuses %s with a NUL with 400 naming the field', async (_what, path, body, field) => {
      const answer = await main('POST', path, { token: owner.token, body: body() });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.detail).toBe(`${field}: must not contain a NUL character`);
    });

    it('refuses a router member name with a NUL with 400', async () => {
      const answer = await router('POST', '/members', {
        body: { email: 'nul@example.com', name: 'A\u0000' },
      });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.detail).toBe('body.name: must not contain a NUL character');
    });

    it.each([
      ['main', '/runs/a%00b/verdict'],
      ['main', '/projects/%00'],
      ['router', '/members/m%00/status'],
      ['router', '/datasets/%00x'],
    ])('refuses a NUL in a %s path parameter (%s) with 400', async (api, path) => {
      const answer = await (api === 'main' ? main : router)('GET', path, { token: owner.token });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.detail).toMatch(/^path\.\w+: must not contain a NUL character$/);
    });

    it('refuses a NUL in a query parameter with 400', async () => {
      const answer = await main('GET', '/runs?project_id=%00', { token: owner.token });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.detail).toBe('query.project_id: must not contain a NUL character');
    });
  });

  describe('multipart evidence uploads', () => {
    const upload = (label: string, filename: string) => {
      const form = new FormData();
      form.append('label', label);
      form.append('file', new Blob(['hello']), filename);
      return main('POST', `/runs/${runId}/evidence/upload`, { token: owner.token, form });
    };

    it('refuses a NUL in the label (naming it) or in the file name with 400', async () => {
      const label = await upload('a\u0000b', 'notes.txt');
      expect(label.status, label.text).toBe(400);
      expect(label.body.detail).toBe('body.label: must not contain a NUL character');
      const named = await upload('notes', 'a\u0000b.txt');
      expect(named.status, named.text).toBe(400);
      // busboy already refuses a raw NUL in a part header as a malformed body.
      expect(named.body).toEqual({ detail: expect.any(String) });
    });
  });

  describe('lone surrogates', () => {
    const LONE = 'must be well-formed Unicode (a lone surrogate was sent)';

    it.each([
      ['a high one at the start', '\ud800abc'],
      ['a high one at the end', 'abc\udbff'],
      ['a low one at the start', '\udc00abc'],
      ['a low one at the end', 'abc\udfff'],
      ['two low ones', '\udc00\udc00'],
      ['a low one before a high one', '\udc00\ud800'],
    ])(
      'refuses an API key name with %s with 400 (no receipt, nothing stored)',
      async (_w, name) => {
        const answer = await main('POST', '/org/api-keys', { token: owner.token, body: { name } });
        expect(answer.status, answer.text).toBe(400);
        expect(answer.body.detail).toBe(`body.name: ${LONE}`);
      },
    );

    it('accepts a surrogate pair and stores and attests it as sent', async () => {
      const title = 'rocket \ud83d\ude80';
      const created = await main<{ id: string; title: string }>('POST', '/runs', {
        token: owner.token,
        body: { project_id: projectId, flight_sheet_id: 'agent-task-report', title },
      });
      expect(created.status, created.text).toBe(201);
      const read = await main<{ run: { title: string } }>('GET', `/runs/${created.body.id}`, {
        token: owner.token,
      });
      expect(read.body.run.title).toBe(title);
    });

    it('mints a receipt whose payload carries the run title byte for byte as sent', async () => {
      const title = 'r\u00e9sum\u00e9 \ud83d\ude80 \ufffd\u00a0x\u2028y';
      const created = await main<{ id: string }>('POST', '/runs', {
        token: owner.token,
        body: { project_id: projectId, flight_sheet_id: 'agent-task-report', title },
      });
      expect(created.status, created.text).toBe(201);
      const id = created.body.id;
      const steps: Array<[string, unknown]> = [
        [`/runs/${id}/evidence`, { kind: 'log', label: 'log', content: 'ok' }],
        [`/runs/${id}/submission`, AGENT_REPORT],
        [`/runs/${id}/audit`, undefined],
      ];
      for (const [path, body] of steps) {
        const done = await main('POST', path, { token: owner.token, ...(body ? { body } : {}) });
        expect(done.status, `${path} ${done.text}`).toBeLessThan(300);
      }
      await decide(main, owner.token, id, 'approved');
      const receipt = await mint(main, owner.token, id);
      const shared = await main<{ payload: { run: { title: string } } }>(
        'GET',
        sharePath(receipt.share_url),
        { headers: { accept: 'application/json' } },
      );
      expect(shared.status, shared.text).toBe(200);
      const attested = shared.body.payload.run.title;
      expect(Buffer.from(attested, 'utf8').equals(Buffer.from(title, 'utf8'))).toBe(true);
    });

    it('refuses a lone surrogate in a run title instead of storing U+FFFD', async () => {
      const answer = await main('POST', '/runs', {
        token: owner.token,
        body: { project_id: projectId, flight_sheet_id: 'agent-task-report', title: 'x\ud800' },
      });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.detail).toBe(`body.title: ${LONE}`);
    });

    it('refuses a lone surrogate in an object key of a submission, naming its parent', async () => {
      const answer = await raw(
        server.url,
        'POST',
        `/runs/${runId}/submission`,
        '{"task":"t","steps":{"\\ud800":1}}',
      );
      expect(answer).toEqual({ status: 400, detail: `body.steps: a key ${LONE}` });
    });

    it('refuses a lone surrogate in evidence content', async () => {
      const answer = await main('POST', `/runs/${runId}/evidence`, {
        token: owner.token,
        body: { kind: 'log', label: 'log', content: 'ok\udfff' },
      });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.detail).toBe(`body.content: ${LONE}`);
    });

    it('refuses a lone surrogate in a job input key and a result key on the router', async () => {
      const job = await raw(
        server.routerUrl,
        'POST',
        '/jobs',
        `{"member_id":"${memberId}","type":"inference","node_class":"gpu_a_96gb","hours":1,"input":{"\\udc00x":1}}`,
      );
      expect(job).toEqual({ status: 400, detail: `body.input: a key ${LONE}` });
      await newJob(router, memberId);
      const leased = (await lease(router, worker.worker_token))!;
      const done = await raw(
        server.routerUrl,
        'POST',
        `/workers/jobs/${leased.job.job_id}/complete`,
        `{"lease_token":"${leased.lease_token}","result":{"ok":{"\\ud800":"x"}}}`,
        { authorization: `Bearer ${worker.worker_token}` },
      );
      expect(done).toEqual({ status: 400, detail: `body.result.ok: a key ${LONE}` });
    });
  });

  describe('bytes that are not UTF-8', () => {
    it.each([
      ['an overlong NUL', [0xc0, 0x80]],
      ['an overlong slash', [0xe0, 0x80, 0xaf]],
      ['an encoded surrogate', [0xed, 0xa0, 0x80]],
      ['a lone continuation byte', [0x80]],
      ['0xFF', [0xff]],
    ])('refuses a body with %s sent raw with 400', async (_what, bytes) => {
      const body = Buffer.concat([
        Buffer.from('{"name":"a'),
        Buffer.from(bytes),
        Buffer.from('"}'),
      ]);
      for (const [base, path] of [
        [server.url, '/projects'],
        [server.routerUrl, '/members'],
      ] as const) {
        const answer = await raw(base, 'POST', path, body);
        expect(answer).toEqual({ status: 400, detail: 'request body is not valid UTF-8' });
      }
    });

    it.each(['%C0%80', '%ED%A0%80', '%FF'])(
      'refuses the query escape %s instead of reading U+FFFD',
      async (escape) => {
        const answer = await main('GET', `/runs?project_id=x${escape}`, { token: owner.token });
        expect(answer.status, answer.text).toBe(400);
        expect(answer.body.detail).toBe(
          'query: a malformed percent-escape or one that is not UTF-8',
        );
      },
    );
  });

  describe('depth', () => {
    it('accepts 64 levels and refuses 65 on the main API', async () => {
      const at = (levels: number) =>
        raw(server.url, 'POST', `/runs/${runId}/submission`, nested(levels));
      const accepted = await fetch(`${server.url}/runs/${runId}/submission`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
        body: nested(64),
      });
      expect(accepted.status).toBeLessThan(500);
      expect(accepted.status).not.toBe(400);
      expect(await at(65)).toEqual({
        status: 400,
        detail: 'request body nests deeper than 64 levels',
      });
    });

    it.each([65, 10_000])(
      'refuses a job input and a result %i levels deep on the router with 400',
      async (levels) => {
        const input = nested(levels - 1);
        const job = await raw(
          server.routerUrl,
          'POST',
          '/jobs',
          `{"member_id":"${memberId}","type":"inference","node_class":"gpu_a_96gb","hours":1,"input":${input}}`,
        );
        expect(job).toEqual({ status: 400, detail: 'request body nests deeper than 64 levels' });
        const { job_id } = await newJob(router, memberId);
        const leased = (await lease(router, worker.worker_token))!;
        expect(leased.job.job_id).toBe(job_id);
        const done = await raw(
          server.routerUrl,
          'POST',
          `/workers/jobs/${job_id}/complete`,
          `{"lease_token":"${leased.lease_token}","result":${input}}`,
          { authorization: `Bearer ${worker.worker_token}` },
        );
        expect(done).toEqual({ status: 400, detail: 'request body nests deeper than 64 levels' });
        const manual = await raw(
          server.routerUrl,
          'POST',
          `/jobs/${job_id}/complete`,
          `{"result":${input}}`,
        );
        expect(manual).toEqual({
          status: 400,
          detail: 'request body nests deeper than 64 levels',
        });
      },
    );

    it('accepts a job input 63 levels deep inside its 64-level body', async () => {
      const response = await fetch(`${server.routerUrl}/jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"member_id":"${memberId}","type":"inference","node_class":"gpu_a_96gb","hours":1,"input":${nested(63)}}`,
      });
      expect(response.status).toBe(201);
    });
  });

  describe('content encodings, charsets and content types', () => {
    const member = JSON.stringify({ email: 'zip@example.com', name: 'Zip' });

    it('reads a good gzip and a good Brotli body', async () => {
      for (const [encoding, bytes] of [
        ['gzip', gzipSync(member)],
        ['br', brotliCompressSync(member)],
      ] as const) {
        const response = await fetch(`${server.routerUrl}/members`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-encoding': encoding },
          body: bytes,
        });
        expect(response.status, encoding).toBe(201);
      }
    });

    it.each([
      ['gzip', Buffer.from(member)],
      ['br', Buffer.from(member)],
      ['gzip', gzipSync(member).subarray(0, 20)],
      ['deflate', Buffer.from('not deflate at all')],
    ])('refuses a %s body that does not decode with 400', async (encoding, bytes) => {
      for (const base of [server.url, server.routerUrl]) {
        const answer = await raw(
          base,
          'POST',
          base === server.url ? '/projects' : '/members',
          bytes,
          {
            'content-encoding': encoding,
          },
        );
        expect(answer.status).toBe(400);
        expect(answer.detail).toMatch(/^request body could not be read/);
      }
    });

    it('answers 400 to a body that ends before its Content-Length', async () => {
      const { hostname, port } = new URL(server.routerUrl);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect({ host: hostname, port: Number(port), allowHalfOpen: true });
        let received = '';
        socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
        socket.on('end', () => resolve(received));
        socket.on('error', reject);
        socket.write(
          'POST /members HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
            'Content-Length: 100\r\nConnection: close\r\n\r\n{"email":"cut@exa',
        );
        socket.end();
      });
      expect(answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer).toMatch(/content-type: application\/json/i);
      expect(answer).toMatch(/\r\n\r\n\{"detail":"[^"]+"\}$/);
    });

    it('refuses an unknown content encoding with 415', async () => {
      const answer = await raw(server.routerUrl, 'POST', '/members', member, {
        'content-encoding': 'compress',
      });
      expect(answer).toEqual({ status: 415, detail: 'unsupported content encoding' });
    });

    it.each(['utf-16', 'latin1', 'no-such-charset'])(
      'refuses charset=%s with 415',
      async (charset) => {
        const answer = await raw(server.routerUrl, 'POST', '/members', member, {
          'content-type': `application/json; charset=${charset}`,
        });
        expect(answer).toEqual({ status: 415, detail: 'unsupported charset: send JSON as UTF-8' });
      },
    );

    it('refuses a body that is not JSON by its content type with 415', async () => {
      const answer = await raw(server.routerUrl, 'POST', '/members', member, {
        'content-type': 'text/plain',
      });
      expect(answer.status).toBe(415);
    });

    it('refuses a body larger than the limit with 413', async () => {
      const big = JSON.stringify({ email: 'big@example.com', name: 'x'.repeat(2 * 1024 * 1024) });
      const answer = await raw(server.routerUrl, 'POST', '/members', big);
      expect(answer).toEqual({ status: 413, detail: 'request body is too large' });
    });
  });

  describe('JSON that parses but would not be stored as sent', () => {
    it('refuses a duplicate member name with 400 naming it', async () => {
      const answer = await raw(
        server.routerUrl,
        'POST',
        '/members',
        '{"email":"dup@example.com","name":"A","name":"B"}',
      );
      expect(answer).toEqual({
        status: 400,
        detail: 'request body repeats a member name in one object: "name"',
      });
      const escaped = await raw(
        server.url,
        'POST',
        `/runs/${runId}/submission`,
        '{"task":{"a":1,"\\u0061":2}}',
      );
      expect(escaped.status).toBe(400);
    });

    it('accepts the same name in sibling objects', async () => {
      const response = await fetch(`${server.routerUrl}/jobs`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"member_id":"${memberId}","type":"inference","node_class":"gpu_a_96gb","hours":1,"input":{"a":{"x":1},"b":{"x":2},"list":[{"x":1},{"x":2}]}}`,
      });
      expect(response.status).toBe(201);
    });

    it('refuses a __proto__ key with 400', async () => {
      const answer = await raw(
        server.routerUrl,
        'POST',
        '/jobs',
        `{"member_id":"${memberId}","type":"inference","node_class":"gpu_a_96gb","hours":1,"input":{"__proto__":{"admin":true}}}`,
      );
      expect(answer).toEqual({ status: 400, detail: 'body.input: a key must not be "__proto__"' });
    });

    it.each(['1e309', '-1e309'])('refuses the number %s with 400', async (number) => {
      const answer = await raw(
        server.url,
        'POST',
        `/runs/${runId}/submission`,
        `{"totals":{"cost_usd":${number}}}`,
      );
      expect(answer).toEqual({
        status: 400,
        detail: 'body.totals.cost_usd: number is out of range',
      });
    });
  });
});
