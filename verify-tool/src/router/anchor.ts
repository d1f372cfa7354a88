import { fromHex } from '../hash/hex.js';
import {
  checkSignedCheckpoint,
  signCheckpoint,
  type Authorship,
} from '../ledger/signed-checkpoint.js';
import type { NoteSigner } from '../note/keys.js';
import type { TrustedKey } from '../note/keyring.js';
import { FIRST_PREV_CHECKSUM } from './receipt.js';
import type { RouterReceiptError } from './verify.js';

/**
 * Router day files and their anchors. Each instance writes its own files,
 * `YYYY-MM-DD.receipts.jsonl`, or `YYYY-MM-DD.<instance>.receipts.jsonl` when it is given an
 * instance id, and after each append batch rewrites the anchor beside
 * it, `<day file>.anchor`: a signed checkpoint-style note whose body is
 *   `<host>/router/<instance>/<YYYY-MM-DD>` (origin), the file's line count, base64 of the last
 *   line's checksum_sha256 (32 zero bytes for an empty file), and a `time <ISO 8601>` line.
 * A file cut at any line boundary, or a dropped line, no longer matches its anchor. Files named
 * without an instance (`YYYY-MM-DD.receipts.jsonl`) are what an instance without INSTANCE_ID writes,
 * anchored the same way (origin `<host>/router/<YYYY-MM-DD>`); such a file dated no later than every
 * anchored file beside it may predate anchors and lack one: it is still checked line by line, and
 * the verifier says it is unanchored.
 */
export const ROUTER_DAY_FILE = /^(\d{4}-\d{2}-\d{2})(?:\.([A-Za-z0-9_-]{1,64}))?\.receipts\.jsonl$/;

export const ANCHOR_SUFFIX = '.anchor';

export function routerDayFileName(date: string, instance: string): string {
  const name = `${date}.${instance}.receipts.jsonl`;
  if (!ROUTER_DAY_FILE.test(name)) throw new RangeError(`not a day file name: ${name}`);
  return name;
}

export const routerAnchorFileName = (dayFileName: string): string => dayFileName + ANCHOR_SUFFIX;

/** The origin line of a day file's anchor (`/router/<date>` for a file named without instance). */
export function routerAnchorOrigin(host: string, dayFileName: string): string {
  const match = ROUTER_DAY_FILE.exec(dayFileName);
  if (match === null) throw new RangeError(`not a day file name: ${dayFileName}`);
  const [, date, instance] = match;
  return instance === undefined ? `${host}/router/${date}` : `${host}/router/${instance}/${date}`;
}

/** The anchor note for a day file after `lineCount` lines ending in `headChecksum`. */
export function signRouterAnchor(
  anchor: {
    host: string;
    dayFileName: string;
    lineCount: number;
    headChecksum: string;
    time: Date | string;
  },
  signer: NoteSigner,
): string {
  const head = fromHex(anchor.headChecksum);
  if (head === null || head.length !== 32)
    throw new RangeError('headChecksum must be 64 lowercase hex');
  return signCheckpoint(
    {
      origin: routerAnchorOrigin(anchor.host, anchor.dayFileName),
      size: anchor.lineCount,
      rootHash: head,
      time: anchor.time,
    },
    signer,
  );
}

const ANCHOR_CODES = {
  bad_checkpoint: 'bad_anchor',
  root_mismatch: 'anchor_mismatch',
  origin_mismatch: 'anchor_mismatch',
  signature_invalid: 'signature_invalid',
  witness_quorum: 'signature_invalid', // anchors are not witnessed: never given a policy
} as const;

/** Checks a day file (its name, receipt count and last checksum) against its anchor's text. */
export function checkRouterAnchor(
  anchor: string | undefined,
  file: {
    path: string;
    name: string;
    lines: number;
    headChecksum: string | null;
    /**
     * The earliest date of an anchored file beside this one: a file named without an instance and
     * dated after it was written when anchors existed, so it must have one too.
     */
    anchorsSince?: string;
  },
  keys?: readonly TrustedKey[],
): { errors: RouterReceiptError[]; authorship: Authorship } {
  const at = (code: RouterReceiptError['code'], message: string): RouterReceiptError => ({
    file: file.path,
    line: file.lines,
    receipt_id: null,
    code,
    message,
  });
  const named = ROUTER_DAY_FILE.exec(file.name);
  const since = file.anchorsSince;
  const unnamed = named !== null && named[2] === undefined;
  if (anchor === undefined && unnamed && (since === undefined || named[1]! <= since)) {
    // A file from before anchors (no instance in its name): still verified line by line.
    const message = `${file.name} predates anchors: a cut at a line boundary cannot be detected in it`;
    return { errors: [], authorship: { status: 'no_checkpoint', message } };
  }
  if (anchor === undefined) {
    const message = `no anchor ${routerAnchorFileName(file.name)} beside the file: a cut or a dropped last line cannot be detected`;
    return { errors: [at('anchor_missing', message)], authorship: { status: 'failed', message } };
  }
  const suffix = named === null ? '' : routerAnchorOrigin('', file.name);
  const head = fromHex(file.headChecksum ?? FIRST_PREV_CHECKSUM) ?? new Uint8Array(32);
  const checked = checkSignedCheckpoint(anchor, {
    originSuffix: suffix,
    size: file.lines,
    root: head,
    keys,
  });
  return {
    errors: checked.findings.map((f) => at(ANCHOR_CODES[f.code], `anchor: ${f.message}`)),
    authorship: checked.authorship,
  };
}
