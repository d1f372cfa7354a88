import type { NoteSigner } from '../note/keys.js';
import { routerAnchorFileName, routerDayFileName, signRouterAnchor } from '../router/anchor.js';
import {
  FIRST_PREV_CHECKSUM,
  formatRouterReceiptLine,
  sealRouterReceipt,
} from '../router/receipt.js';
import { TEST_HOST } from './ledger.js';

/** A day file of `n` router receipts and its signed anchor, as an instance writes them. */
export function dayFileWithAnchor(date: string, instance: string, n: number, signer: NoteSigner) {
  let prev = FIRST_PREV_CHECKSUM;
  const lines: string[] = [];
  for (let seq = 1; seq <= n; seq += 1) {
    const receipt = sealRouterReceipt(
      {
        receipt_id: `rr_${instance}_${date}_${seq}`,
        type: 'compute_quote',
        created_at: `${date}T01:00:0${seq % 10}.000Z`,
        seq,
        subject: 'mem_1',
        amount: '10.00',
        currency: 'USD',
      },
      prev,
    );
    prev = receipt.checksum_sha256;
    lines.push(formatRouterReceiptLine(receipt));
  }
  const name = routerDayFileName(date, instance);
  const anchor = signRouterAnchor(
    {
      host: TEST_HOST,
      dayFileName: name,
      lineCount: n,
      headChecksum: prev,
      time: `${date}T02:00:00.000Z`,
    },
    signer,
  );
  return {
    name,
    anchorName: routerAnchorFileName(name),
    text: lines.map((l) => l + '\n').join(''),
    lines,
    anchor,
  };
}
