import PDFDocument from 'pdfkit';
import { SHARE_JSON_ATTACHMENT } from '@runledger/verify/ledger';
import { TLOG_PROOF_ATTACHMENT, type RunReceiptPayload, type ShareView } from '@runledger/core';
import { registerFaces } from './pdf/fonts.js';
import { isolate } from './pdf/tokens.js';
import { textWidth, writeLine, writeText, type TextStyle } from './pdf/write.js';
import { qrModules } from './qr.js';
import { personName, readableTime, runPayloadOf } from './view.js';
import { findingOf, LEGEND, STATUS_WORDS, verificationOf, type Verification } from './words.js';

type Doc = PDFKit.PDFDocument;

const MARGIN = { top: 64, bottom: 64, left: 50, right: 50 };
const QR_MODULE_PT = 2;
const LABEL_WIDTH = 120;
const BODY: TextStyle = { size: 10 };
const RED = '#b42318';
const GREEN = '#1a7f37';
const MUTED = '#555';

/** The content box: the page width between the margins. */
const box = (doc: Doc, indent = 0) => ({
  x: MARGIN.left + indent,
  width: doc.page.width - MARGIN.left - MARGIN.right - indent,
});

function heading(doc: Doc, title: string, altered = false): void {
  // A heading never sits alone at the bottom of a page.
  if (doc.y + 60 > doc.page.height - MARGIN.bottom) doc.addPage();
  doc.y += 10;
  writeText(doc, altered ? `${title} (altered, not verified)` : title, box(doc), {
    size: 12,
    bold: true,
    color: altered ? RED : '#000',
  });
  doc.y += 2;
}

/** A label in the left column and its value wrapped in the right one. */
function field(doc: Doc, label: string, value: string, style: Partial<TextStyle> = {}): void {
  if (doc.y + 16 > doc.page.height - MARGIN.bottom) doc.addPage();
  const top = doc.y;
  writeLine(doc, label, MARGIN.left, top, { ...BODY, bold: true });
  writeText(doc, value, box(doc, LABEL_WIDTH), { ...BODY, ...style });
  doc.y = Math.max(doc.y, top + 14);
}

const withId = (name: string, id: string) => (name === id ? id : `${isolate(name)} (${id})`);

function runSections(doc: Doc, p: RunReceiptPayload, view: ShareView, altered: boolean): void {
  heading(doc, 'Run', altered);
  field(doc, 'Organization', withId(view.org_name, p.org_id));
  field(doc, 'Project', withId(view.project_name ?? p.run.project_id, p.run.project_id));
  field(doc, 'Run', withId(p.run.title, p.run.id));
  field(
    doc,
    'Created',
    `${readableTime(p.run.created_at)} by ${withId(personName(view.created_by, p.run.created_by), p.run.created_by)}`,
  );
  field(
    doc,
    'Rulebook',
    `${isolate(p.flight_sheet.slug)} ${p.flight_sheet.version} (${p.flight_sheet.id})`,
  );
  field(doc, 'Receipt issued', `${readableTime(p.minted_at)} (${p.minted_at})`);

  heading(doc, 'Verdict and approval', altered);
  const v = p.verdict;
  field(doc, 'Verdict', `outcome ${v.outcome}, severity ${v.severity}, score ${v.score} of 100`);
  const a = p.approval;
  field(
    doc,
    'Approved by',
    `${withId(personName(view.approved_by, a.decided_by), a.decided_by)} on ${readableTime(a.decided_at)}`,
  );
  if (a.note) field(doc, 'Note', a.note);

  heading(doc, `Checks (${p.checks.length})`, altered);
  for (const c of p.checks) {
    const { finding, criterion } = findingOf(c);
    doc.y += 3;
    writeText(
      doc,
      `${STATUS_WORDS[c.status]} · tier ${c.tier} · ${c.kind === 'auto' ? 'automatic' : 'reviewer'} · ${isolate(c.key)}`,
      box(doc),
      { ...BODY, bold: true, color: c.status === 'flag' ? RED : '#000' },
    );
    field(doc, 'Finding', finding);
    if (criterion !== null) field(doc, 'Criterion', criterion, { color: MUTED });
  }

  heading(doc, `Evidence (${p.evidence.length})`, altered);
  if (p.evidence.length === 0) writeText(doc, 'None.', box(doc), BODY);
  for (const e of p.evidence) {
    writeText(doc, `${isolate(e.kind)} · ${isolate(e.label)} · ${e.size} bytes`, box(doc), BODY);
    writeText(doc, `SHA-256 ${e.sha256}`, box(doc, 12), { size: 8, color: MUTED });
  }
}

function verificationSection(doc: Doc, v: Verification, bundled: boolean): void {
  heading(doc, 'What was checked');
  writeText(
    doc,
    `As of ${v.asOf} (${v.asOfIso}), on the server that issued the receipt.`,
    box(doc),
    {
      ...BODY,
      color: MUTED,
    },
  );
  for (const c of v.checks) {
    writeText(doc, `${c.ok ? '✓ passed' : '✗ FAILED'}  ${c.name}`, box(doc), {
      ...BODY,
      bold: true,
      color: c.ok ? GREEN : RED,
    });
    writeText(doc, c.what, box(doc, 12), BODY);
    for (const reason of c.reasons) writeText(doc, reason, box(doc, 12), { ...BODY, color: RED });
  }
  doc.y += 4;
  writeText(doc, v.authorship, box(doc), BODY);
  heading(doc, 'Check it yourself');
  v.howTo.forEach((line, i) => writeText(doc, `${i + 1}. ${line}`, box(doc), BODY));
  if (bundled) {
    writeText(
      doc,
      `This PDF carries the share JSON as its attached file ${SHARE_JSON_ATTACHMENT}: drop the PDF itself on ${v.verifyUrl} (or the saved page, offline), or save the attachment and verify it as above.`,
      box(doc),
      BODY,
    );
  }
}

function legend(doc: Doc): void {
  heading(doc, 'Legend');
  for (const { term, meaning } of LEGEND) {
    writeText(doc, term, box(doc), { ...BODY, bold: true });
    writeText(doc, meaning, box(doc, 12), BODY);
  }
}

/** The QR code of share_url at the top right of the first page, beside the title. */
function qrCode(doc: Doc, text: string, top: number): number {
  const matrix = qrModules(text);
  const side = matrix.length * QR_MODULE_PT;
  const left = doc.page.width - MARGIN.right - side;
  matrix.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark)
        doc.rect(left + x * QR_MODULE_PT, top + y * QR_MODULE_PT, QR_MODULE_PT, QR_MODULE_PT);
    }),
  );
  doc.fillColor('#000').fill();
  return side;
}

/** Header and footer on every page: the receipt id, the result and "page n of N". */
function frame(doc: Doc, receiptId: string, v: Verification): void {
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i += 1) {
    doc.switchToPage(i);
    const bottom = doc.page.height - 40;
    const small: TextStyle = { size: 8, color: MUTED };
    writeLine(doc, `runledger receipt ${receiptId}`, MARGIN.left, 28, small);
    const result = v.ok ? `Verified as of ${v.asOf}` : `NOT VERIFIED as of ${v.asOf}`;
    const resultStyle = { ...small, color: v.ok ? GREEN : RED };
    writeLine(
      doc,
      result,
      doc.page.width - MARGIN.right - textWidth(doc, result, resultStyle),
      28,
      resultStyle,
    );
    doc
      .moveTo(MARGIN.left, 44)
      .lineTo(doc.page.width - MARGIN.right, 44)
      .lineWidth(0.5)
      .stroke('#ccc');
    doc
      .moveTo(MARGIN.left, bottom - 6)
      .lineTo(doc.page.width - MARGIN.right, bottom - 6)
      .stroke('#ccc');
    writeLine(doc, `Receipt ${receiptId}`, MARGIN.left, bottom, small);
    const page = `Page ${i - start + 1} of ${count}`;
    writeLine(
      doc,
      page,
      doc.page.width - MARGIN.right - textWidth(doc, page, small),
      bottom,
      small,
    );
  }
}

/**
 * The receipt as a PDF: the verification result first, then the run, verdict, approval, checks and
 * evidence, what was checked and how to check it, a legend and the hashes. Every page has a header
 * and a footer with the receipt id and its page number. Fonts are embedded (see pdf/fonts.ts).
 * `shareJson`, the share link's JSON answer as sent, is attached as `share.json`, so the PDF alone
 * verifies offline (docs/share.md); `tlogProof`, its C2SP tlog-proof, as `receipt.tlog-proof`.
 */
export function sharePdf(view: ShareView, shareJson?: string, tlogProof?: string): Promise<Buffer> {
  const { receipt, share_url: shareUrl } = view;
  const payload = runPayloadOf(receipt);
  const v = verificationOf(view);
  const doc = new PDFDocument({
    size: 'A4',
    margins: MARGIN,
    bufferPages: true,
    info: {
      Title: `runledger receipt ${receipt.receipt_id}`,
      Subject: receipt.receipt_sha256,
      // Page text is compressed; the metadata carries the verification result readably too.
      Keywords: v.ok ? 'verified' : 'NOT VERIFIED',
      Creator: 'runledger',
      ...(payload ? { CreationDate: new Date(payload.minted_at) } : {}),
    },
  });
  registerFaces(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const top = MARGIN.top;
  const qrSide = qrCode(doc, shareUrl, top);
  const beside = { x: MARGIN.left, width: box(doc).width - qrSide - 16 };
  doc.y = top;
  writeText(doc, 'runledger receipt', beside, { size: 18, bold: true });
  writeText(doc, receipt.receipt_id, beside, { size: 12 });
  writeText(doc, `Issued by ${isolate(view.org_name)}`, beside, { ...BODY, color: MUTED });
  writeText(doc, `Scan or open: ${shareUrl}`, beside, { size: 8, color: MUTED });
  doc.y = Math.max(doc.y, top + qrSide) + 10;
  writeText(doc, v.headline, box(doc), { size: 11, bold: true, color: v.ok ? GREEN : RED });

  if (payload) runSections(doc, payload, view, !v.ok);
  else {
    heading(doc, 'Content', true);
    writeText(doc, 'The stored content is not a well-formed run receipt.', box(doc), BODY);
  }
  verificationSection(doc, v, shareJson !== undefined);
  legend(doc);

  heading(doc, 'Hashes');
  field(doc, 'org_seq', String(receipt.org_seq));
  field(doc, 'Stored', `${readableTime(view.created_at)} (${view.created_at})`);
  // A 64-digit hash fits one line at this size, so it is copied whole from the PDF.
  const hash = { size: 8 };
  field(doc, 'receipt_sha256', receipt.receipt_sha256, hash);
  if (payload) {
    field(doc, 'parent_hash', payload.parent_hash, hash);
    field(doc, 'submission_sha256', payload.submission_sha256, hash);
    field(doc, 'flight_sheet.sha256', payload.flight_sheet.sha256, hash);
  }

  frame(doc, receipt.receipt_id, v);
  if (shareJson !== undefined) {
    doc.file(Buffer.from(shareJson, 'utf8'), {
      name: SHARE_JSON_ATTACHMENT,
      type: 'application/json',
      description: `runledger share JSON of receipt ${receipt.receipt_id}: receipt, signed checkpoint, inclusion proof`,
    });
  }
  if (tlogProof !== undefined) {
    doc.file(Buffer.from(tlogProof, 'utf8'), {
      name: TLOG_PROOF_ATTACHMENT,
      type: 'text/plain',
      description: `C2SP tlog-proof of receipt ${receipt.receipt_id}: runledger-verify tlog-proof`,
    });
  }
  doc.end();
  return done;
}
