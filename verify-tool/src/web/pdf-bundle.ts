import { SHARE_JSON_ATTACHMENT } from '../ledger/shared-receipt.js';

/**
 * A receipt PDF from the server carries its own bundle: the share JSON (receipt, signed checkpoint,
 * inclusion proof) as the embedded file `share.json`. This finds it in the PDF's bytes without a
 * PDF library: the file specification naming `share.json`, the embedded-file object its `/EF`
 * points to, and that object's stream, inflated where it is `/FlateDecode`. Nothing here is
 * trusted: what comes out is verified like any dropped share JSON.
 *
 * Objects are read where they stand, last definition first (an incremental update overrides), so
 * the cross-reference table is not needed; a PDF re-saved with compressed object streams hides the
 * file specification and is refused like a PDF without a bundle.
 */

/** `/F (share.json)` or `/UF (share.json)` in a file specification. */
const NAMED = new RegExp(`/U?F\\s*\\(${SHARE_JSON_ATTACHMENT.replaceAll('.', '\\.')}\\)`);

/** The inflated bundle is a share JSON, so it has the share JSON's limit. */
const BUNDLE_LIMIT_BYTES = 16 * 1024 * 1024;

export class PdfBundleError extends Error {}

/** `%PDF-` at the start of the file. */
export const isPdf = (head: Uint8Array): boolean =>
  head.length >= 5 && String.fromCharCode(...head.subarray(0, 5)) === '%PDF-';

/** One byte, one character: string offsets are byte offsets. */
const asBinaryText = (bytes: Uint8Array): string => {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return text;
};

/** Each object's number and where its body starts and ends, in file order. */
function objects(text: string): { num: string; start: number; end: number }[] {
  const found: { num: string; start: number; end: number }[] = [];
  for (const m of text.matchAll(/(?:^|[\s>])(\d+)\s+0\s+obj\b/g)) {
    const start = m.index + m[0].length;
    const end = text.indexOf('endobj', start);
    found.push({ num: m[1]!, start, end: end === -1 ? text.length : end });
  }
  return found;
}

/** The dictionary text of an object: up to `stream` when it has one. */
const dictOf = (body: string): string => {
  const at = body.search(/\bstream\r?\n/);
  return at === -1 ? body : body.slice(0, at);
};

async function inflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([new Uint8Array(data)])
    .stream()
    .pipeThrough(new DecompressionStream('deflate'));
  const parts: Uint8Array[] = [];
  let size = 0;
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) {
    size += part.length;
    if (size > BUNDLE_LIMIT_BYTES)
      throw new PdfBundleError(`${SHARE_JSON_ATTACHMENT} is larger than 16 MiB`);
    parts.push(part);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * The text of the embedded `share.json`, or null when the PDF carries none. Throws PdfBundleError
 * when it carries one that cannot be read (an unsupported filter, a broken stream).
 */
export async function embeddedShareJson(bytes: Uint8Array): Promise<string | null> {
  const text = asBinaryText(bytes);
  const all = objects(text).reverse();
  const body = (o: { start: number; end: number }) => text.slice(o.start, o.end);
  const spec = all.find((o) => {
    const dict = dictOf(body(o));
    return /\/Type\s*\/Filespec\b/.test(dict) && NAMED.test(dict);
  });
  const ref = spec && /\/EF\s*<<\s*\/F\s+(\d+)\s+0\s+R/.exec(dictOf(body(spec)))?.[1];
  if (ref === undefined) return null;
  const file = all.find((o) => o.num === ref);
  if (file === undefined)
    throw new PdfBundleError(`the PDF names ${SHARE_JSON_ATTACHMENT} but lacks it`);
  const fileBody = body(file);
  const dict = dictOf(fileBody);
  const streamAt = /\bstream\r?\n/.exec(fileBody);
  const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict)?.[1];
  if (streamAt === null || length === undefined) {
    throw new PdfBundleError(`${SHARE_JSON_ATTACHMENT} in this PDF has no readable stream`);
  }
  const from = file.start + streamAt.index + streamAt[0].length;
  const data = bytes.subarray(from, from + Number(length));
  const filter = /\/Filter\s*\/(\w+)/.exec(dict)?.[1];
  if (filter !== undefined && filter !== 'FlateDecode') {
    throw new PdfBundleError(`${SHARE_JSON_ATTACHMENT} in this PDF is encoded with ${filter}`);
  }
  let raw: Uint8Array;
  try {
    raw = filter === undefined ? data : await inflate(data);
  } catch (error) {
    if (error instanceof PdfBundleError) throw error;
    throw new PdfBundleError(`${SHARE_JSON_ATTACHMENT} in this PDF cannot be inflated`);
  }
  return new TextDecoder().decode(raw);
}
