import { BlockList, isIP } from 'node:net';

/**
 * Which addresses a webhook may reach (docs/webhooks.md, "Request forgery"): never loopback,
 * private (RFC 1918, fc00::/7), link-local (169.254.0.0/16 with the cloud metadata address,
 * fe80::/10), unspecified or the other special ranges below, unless WEBHOOK_ALLOW_PRIVATE lists them.
 */
const REFUSED_V4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];
const REFUSED_V6: readonly [string, number][] = [
  ['::', 128], // unspecified
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8], // multicast
];

const refused = new BlockList();
for (const [net, prefix] of REFUSED_V4) refused.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of REFUSED_V6) refused.addSubnet(net, prefix, 'ipv6');

/** An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 4 ? 'ipv4' : 'ipv6' };
}

/** Parses WEBHOOK_ALLOW_PRIVATE: comma-separated CIDRs (or single addresses); null when invalid. */
export function parseAllowList(text: string): BlockList | null {
  const list = new BlockList();
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const [net, bits] = part.split('/');
    const family = isIP(net ?? '');
    if (family === 0) return null;
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (
      !Number.isInteger(prefix) ||
      prefix < 0 ||
      prefix > max ||
      (bits !== undefined && !/^\d+$/.test(bits))
    ) {
      return null;
    }
    list.addSubnet(net!, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}

/** Whether the address is in a listed range (an allow list, here). */
export function listed(list: BlockList, address: string): boolean {
  const a = unmapped(address);
  return list.check(a.address, a.family);
}

/** Whether a webhook may connect to this IP address. */
export function addressAllowed(address: string, allow: BlockList): boolean {
  if (isIP(address) === 0) return false;
  if (listed(allow, address)) return true;
  const a = unmapped(address);
  return !refused.check(a.address, a.family);
}
