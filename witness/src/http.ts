import { createServer, type IncomingMessage, type Server } from 'node:http';
import { addCheckpoint, type WitnessConfig } from './add-checkpoint.js';

/** The request bodies a witness reads at most: an old size, 63 hashes and a checkpoint note. */
export const MAX_BODY_BYTES = 64 * 1024;

class TooLarge extends Error {}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new TooLarge();
    chunks.push(chunk);
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
}

/** The witness's HTTP service: `POST /add-checkpoint` (C2SP tlog-witness), nothing else. */
export function witnessServer(config: WitnessConfig): Server {
  return createServer((request, response) => {
    const send = (status: number, body: string, contentType = 'text/plain; charset=utf-8') => {
      response.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' });
      response.end(body);
    };
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/add-checkpoint') return send(404, 'not found\n');
    if (request.method !== 'POST') {
      response.setHeader('allow', 'POST');
      return send(405, 'only POST\n');
    }
    readBody(request).then(
      (body) => {
        const answer = addCheckpoint(body, config);
        send(answer.status, answer.body, answer.contentType);
      },
      (error: unknown) => {
        if (error instanceof TooLarge)
          send(413, `the body is larger than ${MAX_BODY_BYTES} bytes\n`);
        else if (error instanceof TypeError) send(400, 'the body is not UTF-8\n');
        else {
          console.error(`runledger-witness: ${(error as Error).message}`);
          send(500, 'internal error\n');
        }
      },
    );
  });
}
