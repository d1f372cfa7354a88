import type * as NodeCryptoModule from 'node:crypto';
import { nodeBuiltin } from './builtin.js';

/** `node:crypto` when the package runs in Node, `undefined` in a browser (see nodeBuiltin). */
export const nodeCrypto = nodeBuiltin<typeof NodeCryptoModule>('node:crypto');
