import type { Request } from 'express';

/**
 * True when the TCP peer is this machine. Reads the socket's address, never a header: a client
 * can write any X-Forwarded-For it likes.
 */
export function fromLoopback(req: Request): boolean {
  const address = req.socket.remoteAddress ?? '';
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * A development sign-in or invite link goes only to a client on this machine; anyone else gets
 * the answer without it, as when the link was mailed, so `npm start` on a shared network hands
 * no sign-in to a neighbour.
 */
export function withoutRemoteDevLink<T extends { dev_link?: string }>(req: Request, answer: T): T {
  if (answer.dev_link === undefined || fromLoopback(req)) return answer;
  const { dev_link: _dropped, ...rest } = answer;
  return rest as T;
}
