import type { Socket } from 'node:net';

/**
 * A request Node's HTTP parser refuses before Express sees it (a body that ends before its
 * Content-Length, a malformed request line or header) is answered like every other error:
 * `{detail}` JSON with the status Node itself would give, then the connection is closed.
 */
const STATUS_OF_CODE: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
};

export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, reason] = STATUS_OF_CODE[error.code ?? ''] ?? [400, 'Bad Request'];
  const body = JSON.stringify({ detail: 'malformed HTTP request (or its body ended early)' });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
