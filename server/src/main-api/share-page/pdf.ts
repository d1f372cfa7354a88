import PDFDocument from 'pdfkit';
import type { RunReceiptPayload, ShareView } from '@runledger/core';
import { qrModules } from './qr.js';
import { runPayloadOf, verificationText } from './view.js';

const MARGIN = 50;
const QR_MODULE_PT = 3;

type Doc = PDFKit.PDFDocument;

function heading(doc: Doc, text: string): void {
  doc.moveDown(0.8).font('Helvetica-Bold').fontSize(12).fillColor('#000').text(text);
  doc.moveDown(0.2).font('Helvetica').fontSize(10);
}

function field(doc: Doc, label: string, value: string | number, mono = false): void {
  if (mono) {
    // A 64-character hash does not fit beside its label on an A4 line: it gets a line of its own.
    doc.font('Helvetica-Bold').fontSize(10).text(`${label}:`);
    doc.font('Courier').text(String(value));
    return;
  }
  doc.font('Helvetica-Bold').fontSize(10).text(`${label}: `, { continued: true });
  doc.font('Helvetica').text(String(value));
}

function runSections(doc: Doc, p: RunReceiptPayload, orgName: string): void {
  heading(doc, 'Organization and run');
  field(doc, 'Organization', `${orgName} (${p.org_id})`);
  field(doc, 'Run', `${p.run.title} (${p.run.id})`);
  field(doc, 'Project', p.run.project_id);
  field(doc, 'Created', `${p.run.created_at} by ${p.run.created_by}`);
  field(
    doc,
    'Flight sheet',
    `${p.flight_sheet.slug} ${p.flight_sheet.version} (${p.flight_sheet.id})`,
  );
  field(doc, 'Minted', p.minted_at);

  heading(doc, 'Verdict and approval');
  field(
    doc,
    'Outcome',
    `${p.verdict.outcome}, severity ${p.verdict.severity}, score ${p.verdict.score}`,
  );
  field(
    doc,
    'Decision',
    `${p.approval.decision} by ${p.approval.decided_by} at ${p.approval.decided_at}`,
  );
  if (p.approval.note) field(doc, 'Note', p.approval.note);

  heading(doc, `Checks (${p.checks.length})`);
  for (const c of p.checks) {
    doc
      .font('Helvetica-Bold')
      .text(`${c.status.toUpperCase()}  ${c.key}`, { continued: true })
      .font('Helvetica')
      .text(`  ${c.category}, ${c.kind}, tier ${c.tier}${c.detail ? ` - ${c.detail}` : ''}`);
  }

  heading(doc, `Evidence (${p.evidence.length})`);
  if (p.evidence.length === 0) doc.text('None.');
  for (const e of p.evidence) {
    doc.text(`${e.kind}  ${e.label}  (${e.size} bytes)`);
    doc.font('Courier').fontSize(8).text(e.sha256).font('Helvetica').fontSize(10);
  }
}

function qrCode(doc: Doc, text: string): void {
  const matrix = qrModules(text);
  const side = matrix.length * QR_MODULE_PT;
  if (doc.y + side + 40 > doc.page.height - MARGIN) doc.addPage();
  heading(doc, 'Share link');
  doc.font('Courier').fontSize(8).text(text);
  const top = doc.y + 8;
  matrix.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark)
        doc.rect(MARGIN + x * QR_MODULE_PT, top + y * QR_MODULE_PT, QR_MODULE_PT, QR_MODULE_PT);
    }),
  );
  doc.fillColor('#000').fill();
  doc.y = top + side + 8;
}

/**
 * The receipt as a PDF: org and run, verdict, checks, hashes, the verification result and a QR code of
 * share_url. The receipt id is also the document title, so it is findable in the file's metadata.
 */
export function sharePdf(view: ShareView): Promise<Buffer> {
  const { receipt, share_url: shareUrl } = view;
  const payload = runPayloadOf(receipt);
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: `runledger receipt ${receipt.receipt_id}`,
      Subject: receipt.receipt_sha256,
      // Page text is compressed; the metadata carries the verification result readably too.
      Keywords: receipt.verified ? 'verified' : 'NOT VERIFIED',
      Creator: 'runledger',
      ...(payload ? { CreationDate: new Date(payload.minted_at) } : {}),
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(18).text('runledger receipt');
  doc.font('Courier').fontSize(12).text(receipt.receipt_id);
  doc.moveDown(0.6);
  const ok = receipt.verified;
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor(ok ? '#1a7f37' : '#b42318')
    .text(verificationText(ok))
    .fillColor('#000');

  if (payload) runSections(doc, payload, view.org_name);
  else {
    heading(doc, 'Payload');
    doc.text('The stored payload is not a well-formed run receipt.');
  }

  heading(doc, 'Hashes');
  field(doc, 'org_seq', receipt.org_seq);
  field(doc, 'created_at', view.created_at);
  field(doc, 'receipt_sha256', receipt.receipt_sha256, true);
  if (payload) {
    field(doc, 'parent_hash', payload.parent_hash, true);
    field(doc, 'submission_sha256', payload.submission_sha256, true);
    field(doc, 'flight_sheet.sha256', payload.flight_sheet.sha256, true);
  }

  qrCode(doc, shareUrl);
  doc.end();
  return done;
}
