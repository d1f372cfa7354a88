import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { BlockList } from 'node:net';
import { addressAllowed } from './address-policy.js';

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for the delivery agent: it resolves the host once and hands the socket the first
 * allowed address, so the address that was checked is the one connected to (DNS rebinding cannot
 * slip a second answer in between). A host with no allowed address fails the connection.
 */
export function guardedLookup(allow: BlockList) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, answers) => {
      if (error) return callback(error, []);
      const ok = answers.filter((a) => addressAllowed(a.address, allow));
      if (ok.length === 0) {
        const refused = Object.assign(
          new Error(`refused address for ${hostname}: ${answers.map((a) => a.address).join(', ')}`),
          { code: 'EWEBHOOKADDRESS' },
        );
        return callback(refused, []);
      }
      if (options.all) return callback(null, ok);
      return callback(null, ok[0]!.address, ok[0]!.family);
    });
  };
}
