/**
 * Standard padded base64 (RFC 4648 section 4), browser-safe. Decoding is strict: the text must be
 * exactly what encoding the decoded bytes gives back, so no two texts decode to the same bytes
 * (a changed padding bit is a changed signature, not an equivalent one).
 */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function base64Encode(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 1) binary += String.fromCharCode(bytes[i] as number);
  return btoa(binary);
}

/** The bytes, or null when the text is not canonical standard base64. */
export function base64Decode(text: string): Uint8Array | null {
  if (!BASE64.test(text)) return null;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return base64Encode(bytes) === text ? bytes : null;
}
