import type { Random } from '../ports/index.js';
import { newSecret } from '../secrets/index.js';

/** 32 random bytes, base64url: the unguessable public handle of one receipt. */
export function shareToken(random: Random): string {
  return newSecret(random, 32);
}

/** `{PUBLIC_BASE_URL}/share/{token}`; a trailing slash on the base is dropped. */
export function shareUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/share/${encodeURIComponent(token)}`;
}

/** `share_url + "/pdf"`. */
export function pdfUrl(baseUrl: string, token: string): string {
  return `${shareUrl(baseUrl, token)}/pdf`;
}
