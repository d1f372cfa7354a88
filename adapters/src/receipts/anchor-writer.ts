import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckpointSigner } from '@runledger/core/ports';
import { routerAnchorFileName, signRouterAnchor } from '@runledger/verify/router';

/** What anchors an instance's day files: its name, the key, and the host of PUBLIC_BASE_URL. */
export interface RouterAnchoring {
  /**
   * INSTANCE_ID, when set: day files are `YYYY-MM-DD.<instance>.receipts.jsonl`. Null (the
   * default): `YYYY-MM-DD.receipts.jsonl`, the name docs/router.md gives.
   */
  instance: string | null;
  signer: CheckpointSigner;
  /** The host of PUBLIC_BASE_URL: anchors' origin is `<host>/router/[<instance>/]<date>`. */
  host: string;
  /** The signing time of each anchor. */
  now: () => Date;
}

/**
 * Replaces `<day file>.anchor` with a signed note over the file's line count and last checksum:
 * written to a temp file and renamed over the old anchor, so a reader sees the old or the new
 * anchor, never half of one. Called (by `anchorQueue`) after the day file's own lines are durable.
 * Not synced: the day file is the record and the anchor is derived from it, and the sink re-signs every anchor of its
 * instance when it opens, so whatever a crash left of an anchor is replaced at the next start
 * (one fsync less per batch of router receipts).
 */
export async function writeRouterAnchor(
  dir: string,
  dayFileName: string,
  state: { lineCount: number; headChecksum: string },
  anchoring: RouterAnchoring,
): Promise<void> {
  const note = signRouterAnchor(
    { host: anchoring.host, dayFileName, ...state, time: anchoring.now() },
    anchoring.signer,
  );
  const path = join(dir, routerAnchorFileName(dayFileName));
  const temp = `${path}.partial`;
  await writeFile(temp, note, { mode: 0o644 });
  await rename(temp, path);
}
