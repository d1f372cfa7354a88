import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, type SignedIn } from '../helpers/auth.js';
import { blobFiles } from '../helpers/blobs.js';
import { apiClient, type Api } from '../helpers/openapi.js';
import { approvedRun, newProject, newRun } from '../helpers/runs.js';
import { openRawDb, type RawDb } from '../helpers/sqlite.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

const MAX = 25 * 1024 * 1024;

function form(parts: Record<string, string | { bytes: Uint8Array; name: string; type?: string }>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(parts)) {
    if (typeof value === 'string') data.append(name, value);
    else
      data.append(
        name,
        new Blob([value.bytes], { type: value.type ?? 'application/octet-stream' }),
        value.name,
      );
  }
  return data;
}

describe('evidence file upload and download', () => {
  let server: TestServer;
  let api: Api;
  let db: RawDb;
  let ada: SignedIn;
  let eve: SignedIn;
  let runId: string;

  const evidenceRows = async () =>
    (await db.all<{ n: number }>('SELECT count(*) AS n FROM evidence'))[0]?.n;

  beforeAll(async () => {
    server = await startTestServer();
    ({ api } = await apiClient(server.url));
    db = await openRawDb(server.dataDir);
    ada = await signIn(api, 'ada@example.com');
    eve = await signIn(api, 'eve@example.com');
    runId = await newRun(api, ada.token, await newProject(api, ada.token));
  });
  afterAll(async () => {
    await db.close();
    await server.close();
  });

  it('stores a file content-addressed and serves it back as an attachment', async () => {
    const bytes = new TextEncoder().encode('<script>alert(1)</script> invoice scan');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const uploaded = await api<{ id: string; kind: string; sha256: string; size: number }>(
      'POST',
      `/runs/${runId}/evidence/upload`,
      {
        token: ada.token,
        form: form({
          label: 'scan',
          file: { bytes, name: 'scan élan.html', type: 'text/html' },
        }),
      },
    );
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toMatchObject({
      kind: 'file',
      label: 'scan',
      sha256,
      size: bytes.byteLength,
      filename: 'scan élan.html',
      content_type: 'text/html',
    });
    expect(await blobFiles(server.dataDir)).toEqual([`${sha256.slice(0, 2)}/${sha256}`]);

    const download = await api('GET', `/runs/${runId}/evidence/${uploaded.body.id}/content`, {
      token: ada.token,
    });
    expect(download.status).toBe(200);
    expect(Buffer.from(download.bytes).equals(Buffer.from(bytes))).toBe(true);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
    expect(download.headers.get('content-disposition')).toContain(
      "filename*=UTF-8''scan%20%C3%A9lan.html",
    );
  });

  it('accepts a file of exactly 25 MB', async () => {
    const other = await newRun(api, ada.token, await newProject(api, ada.token, 'big'));
    const uploaded = await api<{ size: number }>('POST', `/runs/${other}/evidence/upload`, {
      token: ada.token,
      form: form({ label: 'big', file: { bytes: new Uint8Array(MAX).fill(1), name: 'big.bin' } }),
    });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body.size).toBe(MAX);
  });

  it('refuses 25 MB + 1 byte with 413 and keeps no blob and no row', async () => {
    const blobsBefore = await blobFiles(server.dataDir);
    const rowsBefore = await evidenceRows();
    const response = await api('POST', `/runs/${runId}/evidence/upload`, {
      token: ada.token,
      form: form({
        label: 'too big',
        file: { bytes: new Uint8Array(MAX + 1).fill(2), name: 'huge.bin' },
      }),
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ detail: expect.stringContaining('26214400') });
    expect(await blobFiles(server.dataDir)).toEqual(blobsBefore);
    expect(await evidenceRows()).toBe(rowsBefore);
  });

  it.each([
    [
      'a file part under another name',
      { label: 'x', attachment: { bytes: new Uint8Array(3), name: 'a' } },
    ],
    [
      'an extra text field',
      { label: 'x', note: 'hi', file: { bytes: new Uint8Array(3), name: 'a' } },
    ],
    [
      'a text field other than label',
      { title: 'x', file: { bytes: new Uint8Array(3), name: 'a' } },
    ],
    [
      'two files',
      {
        label: 'x',
        file: { bytes: new Uint8Array(3), name: 'a' },
        file2: { bytes: new Uint8Array(3), name: 'b' },
      },
    ],
    ['no file', { label: 'x' }],
    ['no label', { file: { bytes: new Uint8Array(3), name: 'a' } }],
    ['an empty label', { label: '', file: { bytes: new Uint8Array(3), name: 'a' } }],
  ] as const)('answers 400 for %s and keeps nothing', async (_what, parts) => {
    const blobsBefore = await blobFiles(server.dataDir);
    const rowsBefore = await evidenceRows();
    const response = await api('POST', `/runs/${runId}/evidence/upload`, {
      token: ada.token,
      form: form(parts as Parameters<typeof form>[0]),
    });
    expect(response.status).toBe(400);
    expect(await blobFiles(server.dataDir)).toEqual(blobsBefore);
    expect(await evidenceRows()).toBe(rowsBefore);
  });

  it('answers 415 for a body that is not multipart', async () => {
    const response = await api('POST', `/runs/${runId}/evidence/upload`, {
      token: ada.token,
      body: { label: 'x', file: 'aGVsbG8=' },
    });
    expect(response.status).toBe(415);
  });

  it('answers 404 for another organization’s run before reading the file', async () => {
    const blobsBefore = await blobFiles(server.dataDir);
    const response = await api('POST', `/runs/${runId}/evidence/upload`, {
      token: eve.token,
      form: form({ label: 'x', file: { bytes: new Uint8Array([1, 2, 3, 4]), name: 'a' } }),
    });
    expect(response.status).toBe(404);
    expect(await blobFiles(server.dataDir)).toEqual(blobsBefore);
  });

  it('answers 409 for a run that was already decided and keeps nothing', async () => {
    const decided = await approvedRun(api, ada.token, await newProject(api, ada.token, 'done'));
    const blobsBefore = await blobFiles(server.dataDir);
    const rowsBefore = await evidenceRows();
    const response = await api('POST', `/runs/${decided}/evidence/upload`, {
      token: ada.token,
      form: form({ label: 'late', file: { bytes: new Uint8Array([9, 9, 9]), name: 'late' } }),
    });
    expect(response.status).toBe(409);
    expect(await blobFiles(server.dataDir)).toEqual(blobsBefore);
    expect(await evidenceRows()).toBe(rowsBefore);
  });

  it('answers 404 for the content of text evidence, of an unknown id and of another org', async () => {
    const note = await api<{ id: string }>('POST', `/runs/${runId}/evidence`, {
      token: ada.token,
      body: { kind: 'note', label: 'n', content: 'text' },
    });
    const files = await api<{ evidence: Array<{ id: string; kind: string }> }>(
      'GET',
      `/runs/${runId}/evidence`,
      { token: ada.token },
    );
    const file = files.body.evidence.find((e) => e.kind === 'file');
    expect(file).toBeDefined();
    for (const [token, id] of [
      [ada.token, note.body.id],
      [ada.token, 'ev_unknown'],
      [eve.token, file?.id ?? ''],
    ] as const) {
      const response = await api('GET', `/runs/${runId}/evidence/${id}/content`, { token });
      expect(response.status).toBe(404);
    }
  });
});
