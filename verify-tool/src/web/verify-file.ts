import { isInputError } from '../errors.js';
import { attestationEnvelope, verifyAttestationDocument } from './attestation.js';
import { ExportVerifier } from '../export/verify.js';
import type { TrustedKey } from '../note/keyring.js';
import { verifyTlogProof } from '../tlog-proof/verify.js';
import type { WitnessPolicy } from '../witness/policy.js';
import { TLOG_PROOF_MAGIC, tlogProofReport } from './tlog-proof-report.js';
import { withWitnessRow } from './witnesses.js';
import { SHARE_JSON_ATTACHMENT } from '../ledger/shared-receipt.js';
import { streamLineBatches } from './lines.js';
import { embeddedShareJson, isPdf, PdfBundleError } from './pdf-bundle.js';
import { payloadHashes } from './payload-hash.js';
import { exportReport, unreadableReport, type Report } from './report.js';
import { verifyShareDocument } from './share.js';

/** The part of a File the page uses (a Blob in tests). */
export interface FileLike {
  readonly size: number;
  slice(start?: number, end?: number): FileLike;
  stream(): ReadableStream<Uint8Array>;
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export interface VerifyFileOptions {
  keys?: readonly TrustedKey[];
  /** Witnesses that must have cosigned every checkpoint checked. */
  witnesses?: WitnessPolicy;
  /** After each chunk read; the page updates its progress bar and, now and then, lets the browser paint. */
  onProgress?: (bytesRead: number, totalBytes: number) => void | Promise<void>;
}

/** A share JSON is read whole; anything larger is taken for an export. */
export const SHARE_LIMIT_BYTES = 16 * 1024 * 1024;
const SNIFF_BYTES = 64 * 1024;
/** A receipt PDF is read whole to find its embedded share JSON. */
export const PDF_LIMIT_BYTES = 64 * 1024 * 1024;

/** An export's first line is its header, a JSON object with `format`; a share JSON is one document. */
async function looksLikeExport(file: FileLike): Promise<boolean> {
  const head = await file.slice(0, SNIFF_BYTES).text();
  const firstLine = head.split('\n', 1)[0] ?? '';
  try {
    const value = JSON.parse(firstLine) as unknown;
    return typeof value === 'object' && value !== null && 'format' in value;
  } catch {
    return file.size > SHARE_LIMIT_BYTES;
  }
}

/** A receipt PDF: the share JSON it carries as `share.json`, verified; refused when it has none. */
async function verifyReceiptPdf(file: FileLike, options: VerifyFileOptions): Promise<Report> {
  const refuse = (code: string, message: string) => unreadableReport('share', code, message);
  if (file.size > PDF_LIMIT_BYTES) return refuse('bad_pdf', 'the PDF is larger than 64 MiB');
  let text: string | null;
  try {
    text = await embeddedShareJson(new Uint8Array(await file.arrayBuffer()));
  } catch (error) {
    if (error instanceof PdfBundleError) return refuse('bad_pdf', error.message);
    throw error;
  }
  if (text === null) {
    return refuse(
      'no_bundle',
      `this PDF carries no embedded ${SHARE_JSON_ATTACHMENT}: it is not a runledger receipt PDF, or one made before receipts carried their bundle. Open the share link printed on it, download the share JSON there and drop that here`,
    );
  }
  await options.onProgress?.(file.size, file.size);
  let doc: unknown;
  try {
    doc = JSON.parse(text) as unknown;
  } catch (error) {
    return refuse(
      'bad_share',
      `the PDF's ${SHARE_JSON_ATTACHMENT} is not JSON: ${(error as Error).message}`,
    );
  }
  const report = verifyShareDocument(doc, options.keys, options.witnesses);
  return {
    ...report,
    facts: [['Read from', `${SHARE_JSON_ATTACHMENT} embedded in the PDF`], ...report.facts],
  };
}

/**
 * Verifies an export (streamed, in bounded memory), a share JSON or a receipt PDF's embedded share
 * JSON with the library's checks.
 */
export async function verifyFile(file: FileLike, options: VerifyFileOptions = {}): Promise<Report> {
  const magic = new Uint8Array(await file.slice(0, 5).arrayBuffer());
  if (isPdf(magic)) return verifyReceiptPdf(file, options);
  const head = await file.slice(0, TLOG_PROOF_MAGIC.length).text();
  if (head === TLOG_PROOF_MAGIC && file.size <= SHARE_LIMIT_BYTES) {
    const result = verifyTlogProof(await file.text(), {
      ...(options.keys === undefined ? {} : { keys: options.keys }),
      ...(options.witnesses === undefined ? {} : { witnesses: options.witnesses }),
    });
    await options.onProgress?.(file.size, file.size);
    return tlogProofReport(result);
  }
  if (!(await looksLikeExport(file))) {
    if (file.size > SHARE_LIMIT_BYTES) {
      return unreadableReport('export', 'bad_header', 'the first line is not an export header');
    }
    let doc: unknown;
    try {
      doc = JSON.parse(await file.text()) as unknown;
    } catch (error) {
      return unreadableReport(
        'share',
        'unreadable_input',
        `the file is neither an export (its first line is not an export header) nor a share JSON: ${(error as Error).message}`,
      );
    }
    await options.onProgress?.(file.size, file.size);
    const envelope = attestationEnvelope(doc);
    if (envelope !== null) return verifyAttestationDocument(envelope, options.keys);
    return verifyShareDocument(doc, options.keys, options.witnesses);
  }
  const verifier = new ExportVerifier({
    ...(options.keys === undefined ? {} : { keys: options.keys }),
    ...(options.witnesses === undefined ? {} : { witnesses: options.witnesses }),
  });
  try {
    const progress = options.onProgress;
    const batches = streamLineBatches(
      file.stream(),
      progress === undefined ? undefined : (bytes) => progress(bytes, file.size),
    );
    for await (const batch of batches) {
      const hashes = await payloadHashes(batch.bytes);
      batch.texts.forEach((text, i) => {
        const payloadSha256 = hashes[i];
        verifier.push(payloadSha256 === undefined ? { text } : { text, payloadSha256 });
      });
    }
    const finished = verifier.finish();
    return withWitnessRow(exportReport(finished), finished.witnessed);
  } catch (error) {
    if (isInputError(error)) return unreadableReport('export', error.code, error.message);
    throw error;
  }
}
