import { base64Decode, base64Encode } from '../note/base64.js';

/**
 * DSSE (Dead Simple Signing Envelope) v1: the signature covers the pre-authentication encoding
 * PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, LEN being the byte length in
 * ASCII decimal, so the payload type is signed with the body and no canonical form is needed.
 */

/** The payload type of an in-toto Statement. */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

export interface DsseSignature {
  /** An unauthenticated hint: here the signed-note key id (8 hex) of the published key. */
  keyid: string;
  /** Standard base64 of the 64-byte Ed25519 signature. */
  sig: string;
}

/** The JSON envelope: `payload` is the standard base64 of the serialized body. */
export interface DsseEnvelope {
  payloadType: string;
  payload: string;
  signatures: DsseSignature[];
}

/** What signs an envelope: a key id hint and an Ed25519 signature over a message. */
export interface EnvelopeSigner {
  keyid: string;
  sign(message: Uint8Array): Uint8Array;
}

const encoder = new TextEncoder();

export function pae(payloadType: string, body: Uint8Array): Uint8Array {
  const type = encoder.encode(payloadType);
  const head = encoder.encode(`DSSEv1 ${type.length} `);
  const middle = encoder.encode(` ${body.length} `);
  const out = new Uint8Array(head.length + type.length + middle.length + body.length);
  out.set(head);
  out.set(type, head.length);
  out.set(middle, head.length + type.length);
  out.set(body, head.length + type.length + middle.length);
  return out;
}

/** The envelope of `body` with one signature over its PAE. */
export function signEnvelope(
  payloadType: string,
  body: Uint8Array,
  signer: EnvelopeSigner,
): DsseEnvelope {
  return {
    payloadType,
    payload: base64Encode(body),
    signatures: [{ keyid: signer.keyid, sig: base64Encode(signer.sign(pae(payloadType, body))) }],
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A read envelope: the body's bytes and each signature's bytes (null when not base64). */
export interface OpenedEnvelope {
  payloadType: string;
  body: Uint8Array;
  signatures: { keyid: string; sig: Uint8Array | null }[];
}

/**
 * Reads a JSON envelope; null with the reason when a required field is missing or is not base64.
 * DSSE allows URL-safe base64 too; this reader takes standard base64, the form the server writes.
 */
export function openEnvelope(value: unknown): OpenedEnvelope | string {
  if (!isObject(value)) return 'the envelope is not a JSON object';
  const { payloadType, payload, signatures } = value;
  if (typeof payloadType !== 'string' || typeof payload !== 'string' || !Array.isArray(signatures))
    return 'the envelope needs payloadType, payload and signatures';
  const body = base64Decode(payload);
  if (body === null) return 'the envelope payload is not standard base64';
  const read: OpenedEnvelope['signatures'] = [];
  for (const s of signatures) {
    if (!isObject(s) || typeof s.sig !== 'string') return 'every signature needs sig';
    read.push({ keyid: typeof s.keyid === 'string' ? s.keyid : '', sig: base64Decode(s.sig) });
  }
  return { payloadType, body, signatures: read };
}
