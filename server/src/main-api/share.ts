import { tlogProofOf, type Runledger, type ShareView } from '@runledger/core';
import { SharedReceipt } from '@runledger/core/schemas';
import { defineRoute, type Route } from '../http/route.js';
import { safeFilename } from '../http/streaming.js';
import { SHARE_ERROR_PAGE, SHARE_PAGE_CSP, shareHtml, sharePdf } from './share-page/index.js';
import { ShareParams } from './params.js';
import type { Response } from 'express';

/** Share links are capabilities: keep them out of caches and search engines; verification is live. */
function shareHeaders(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Robots-Tag', 'noindex, nofollow');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Content-Security-Policy', SHARE_PAGE_CSP);
}

/** The share link's JSON answer, from the view the page and the PDF are drawn from. */
function sharedReceiptOf(view: ShareView): SharedReceipt {
  return SharedReceipt.parse({
    ...view.receipt,
    checkpoint: view.checkpoint,
    inclusion_proof: view.inclusion_proof,
  });
}

export function shareRoutes({ runledger }: { runledger: Runledger }): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/share/{share_token}',
      summary:
        'A receipt’s public view: payload, receipt_sha256, `verified` (recomputed on every read), the signed checkpoint and the receipt’s inclusion proof',
      description:
        'No credential: the token is the capability. A client that prefers text/html gets a readable page (no script); an unknown token then gets an HTML 404 page.',
      tag: 'share',
      auth: 'none',
      params: ShareParams,
      status: 200,
      response: SharedReceipt,
      errors: [404],
      errorPage: SHARE_ERROR_PAGE,
      html: (_receipt, res) => shareHtml((res.locals as { shareView: ShareView }).shareView),
      handler: async ({ params, req, res }) => {
        shareHeaders(res);
        const wantsHtml = req.accepts(['application/json', 'text/html']) === 'text/html';
        if (!wantsHtml) return runledger.share.get(params.share_token);
        const view = await runledger.share.view(params.share_token);
        res.locals.shareView = view;
        return sharedReceiptOf(view);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/share/{share_token}/pdf',
      summary:
        'The receipt as a PDF: org and run, verdict, checks, hashes, verification result, QR code of share_url; the share JSON is attached as the embedded file share.json',
      tag: 'share',
      auth: 'none',
      params: ShareParams,
      status: 200,
      response: undefined,
      raw: { contentType: 'application/pdf', description: 'A PDF document' },
      errors: [404],
      errorPage: SHARE_ERROR_PAGE,
      handler: async ({ params, res }) => {
        shareHeaders(res);
        const view = await runledger.share.view(params.share_token);
        // The same bytes as the JSON answer (res.json is JSON.stringify of the checked value).
        const shared = sharedReceiptOf(view);
        const pdf = await sharePdf(view, JSON.stringify(shared), tlogProofOf(shared));
        res.status(200);
        res.setHeader('Content-Type', 'application/pdf');
        res.setHeader(
          'Content-Disposition',
          `inline; filename="${safeFilename(view.receipt.receipt_id)}.pdf"`,
        );
        res.end(pdf);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/share/{share_token}/tlog-proof',
      summary:
        'The receipt as a C2SP tlog-proof file: its hash (extra), index and inclusion hashes, and the (cosigned) checkpoint',
      description:
        'Checkable offline with `runledger-verify tlog-proof --key keys.json FILE` (docs/witnesses.md).',
      tag: 'share',
      auth: 'none',
      params: ShareParams,
      status: 200,
      response: undefined,
      raw: { contentType: 'text/plain; charset=utf-8', description: 'A C2SP tlog-proof file' },
      errors: [404],
      handler: async ({ params, res }) => {
        shareHeaders(res);
        const proof = tlogProofOf(await runledger.share.get(params.share_token));
        res.status(200);
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.setHeader('Content-Disposition', 'attachment; filename="receipt.tlog-proof"');
        res.end(proof);
      },
    }),
  ];
}
