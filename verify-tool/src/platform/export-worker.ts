import { parentPort } from 'node:worker_threads';
import type { BlockCheckOptions, CheckedBlock } from '../export/block.js';
import { checkBlockBytes } from './check-block.js';

/** A block of export lines sent to a worker thread (see block-threads.ts). */
export interface BlockRequest {
  id: number;
  buffer: ArrayBuffer;
  length: number;
  final: boolean;
  options: BlockCheckOptions;
}

export interface BlockReply {
  id: number;
  /** The request's buffer, handed back for reuse (and for the caller to check the lines itself). */
  buffer: ArrayBuffer;
  block: CheckedBlock;
}

parentPort?.on('message', (request: BlockRequest) => {
  const bytes = Buffer.from(request.buffer, 0, request.length);
  const block = checkBlockBytes(bytes, request.length, request.final, request.options);
  const reply: BlockReply = { id: request.id, buffer: request.buffer, block };
  parentPort?.postMessage(
    reply,
    block.clean ? [request.buffer, block.leafHashes.buffer as ArrayBuffer] : [request.buffer],
  );
});
