import { describe, expect, it } from 'vitest';
import { VerifyError } from '../errors.js';
import { ReceiptTree } from '../ledger/receipt-tree.js';
import { signCheckpoint } from '../ledger/signed-checkpoint.js';
import { formatVkey, noteSigner } from '../note/keys.js';
import { trustVkey } from '../note/keyring.js';
import { chainOf, TEST_HOST } from '../testing/ledger.js';
import { formatExportHeader, formatExportLine } from './format.js';
import { parseExportHeader } from './parse.js';
import { verifyExportLines } from './verify.js';

const signer = noteSigner('runledger.example', new Uint8Array(32).fill(1));
const key = trustVkey(formatVkey(signer.name, signer.publicKey));
const entries = chainOf(4, 'org_a');
const base = {
  org_id: 'org_a',
  exported_at: '2025-02-01T00:00:00.000Z',
  count: entries.length,
  head_sha256: entries.at(-1)!.receipt_sha256,
};

function checkpointAt(origin: string): string {
  const tree = new ReceiptTree();
  for (const entry of entries) tree.add(entry.receipt_sha256);
  return signCheckpoint(
    { origin, size: tree.size, rootHash: tree.root(), time: base.exported_at },
    signer,
  );
}

const linesWith = (header: Parameters<typeof formatExportHeader>[0]) => [
  formatExportHeader(header),
  ...entries.map(formatExportLine),
];

describe('an export of a named log (the audit receipts)', () => {
  it('writes `log` only when given, so a ledger export header is unchanged', () => {
    expect(JSON.parse(formatExportHeader(base))).not.toHaveProperty('log');
    const header = parseExportHeader(formatExportHeader({ ...base, log: 'audit' }));
    expect(header.log).toBe('audit');
  });

  it.each([[''], ['Audit'], [7], ['audit/../ledger']])(
    'refuses a header whose log is %j',
    (log) => {
      const line = JSON.stringify({ format: 'runledger.ledger/v1', ...base, log });
      expect(() => parseExportHeader(line)).toThrow(VerifyError);
    },
  );

  it('checks the checkpoint against the log’s own origin, <host>/orgs/<org>/audit', async () => {
    const audit = await verifyExportLines(
      linesWith({
        ...base,
        log: 'audit',
        checkpoint: checkpointAt(`${TEST_HOST}/orgs/org_a/audit`),
      }),
      { keys: [key] },
    );
    expect(audit.ok).toBe(true);
    expect(audit.authorship.status).toBe('verified');
  });

  it('refuses the run ledger’s checkpoint on an audit export, and the audit one on a ledger export', async () => {
    const ledgerSigned = await verifyExportLines(
      linesWith({ ...base, log: 'audit', checkpoint: checkpointAt(`${TEST_HOST}/orgs/org_a`) }),
      { keys: [key] },
    );
    expect(ledgerSigned.errors.map((e) => e.code)).toEqual(['origin_mismatch']);
    const auditSigned = await verifyExportLines(
      linesWith({ ...base, checkpoint: checkpointAt(`${TEST_HOST}/orgs/org_a/audit`) }),
      { keys: [key] },
    );
    expect(auditSigned.errors.map((e) => e.code)).toEqual(['origin_mismatch']);
  });
});
