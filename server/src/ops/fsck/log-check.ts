import type { ChainTable, ReadSnapshot } from '@runledger/adapters';
import { ChainVerifier } from '@runledger/verify/chain';
import { checkSignedCheckpoint, type TrustedKey } from '@runledger/verify';
import type { SignedHead } from '../history/signed-history.js';
import type { Findings } from './findings.js';
import { TreeCheck } from './tree-check.js';

/** Rows per page of a chain scan. */
const PAGE = 5000;

export interface LogToCheck {
  orgId: string;
  log: string;
  table: ChainTable;
  /** The receipt id prefix of this chain (RECEIPT_PREFIX, or `audit`). */
  prefix: string;
  /** The latest checkpoint this deployment signed for the log, if any. */
  signed: SignedHead | undefined;
}

export interface LogCheckContext {
  snapshot: ReadSnapshot;
  findings: Findings;
  keys: readonly TrustedKey[];
  /** Told after each page how many receipts were checked. */
  progress: (receipts: number) => void;
}

/** The signed checkpoint against the tree the receipts make: same root at its size, checked by the verifier. */
function checkSigned(log: LogToCheck, tree: TreeCheck, context: LogCheckContext): void {
  const head = log.signed;
  if (head === undefined) return;
  const at = { organization: log.orgId, log: log.log };
  const root = tree.rootAt(head.tree_size);
  if (tree.size < head.tree_size || root === undefined) {
    context.findings.add({
      ...at,
      code: 'behind_signed_checkpoint',
      message: `${tree.size} receipts, but a checkpoint of ${head.tree_size} was signed at ${head.time}`,
    });
    return;
  }
  const suffix = `/orgs/${log.orgId}${log.log === 'ledger' ? '' : `/${log.log}`}`;
  const checked = checkSignedCheckpoint(head.note, {
    originSuffix: suffix,
    size: head.tree_size,
    root,
    keys: context.keys,
  });
  for (const finding of checked.findings) {
    context.findings.add({
      ...at,
      code: `signed_checkpoint_${finding.code}`,
      message: `the checkpoint of ${head.tree_size} signed at ${head.time}: ${finding.message}`,
    });
  }
}

/**
 * One organization's log, streamed once in org_seq order: the chain through the verify package's
 * ChainVerifier (payload bytes against their hash, links, ids, fields), its Merkle tree rebuilt and
 * compared node by node with the stored one, and the last checkpoint signed for it. Returns the
 * Merkle nodes compared.
 */
export async function checkLog(log: LogToCheck, context: LogCheckContext): Promise<number> {
  const verifier = new ChainVerifier({ expectedOrgId: log.orgId, receiptPrefix: log.prefix });
  const tree = new TreeCheck(
    context.snapshot.scan,
    { orgId: log.orgId, log: log.log },
    context.findings,
    log.signed?.tree_size ?? null,
  );
  let after = -1;
  for (;;) {
    const rows = await context.snapshot.scan.chainPage(log.table, log.orgId, after, PAGE);
    for (const row of rows) {
      verifier.push(row);
      tree.add(row.receipt_sha256);
    }
    await tree.compare();
    context.progress(rows.length);
    if (rows.length < PAGE) break;
    after = rows.at(-1)!.org_seq;
  }
  await tree.finish();
  const result = verifier.result();
  for (const error of result.errors) {
    context.findings.add({
      organization: log.orgId,
      log: log.log,
      ...(error.org_seq === null ? {} : { seq: error.org_seq }),
      code: error.code,
      message: error.message,
    });
  }
  checkSigned(log, tree, context);
  return tree.nodesChecked;
}
