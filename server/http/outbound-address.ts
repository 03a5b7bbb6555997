import dns from 'node:dns/promises';
import net, { type LookupFunction } from 'node:net';

// Which hosts the server may fetch from for someone (an organiser's calendar feed, a picture
// pasted into a story): a URL given to the server must not make it reach into
// its own network (the database, a cloud metadata service at 169.254.169.254, the admin side
// of a router). Every address a name resolves to is checked, before connecting and again on
// each redirect, and the connection then goes to the address checked (no second lookup that a
// rebinding DNS server could answer differently).

const BLOCKED = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) BLOCKED.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128],
  ['64:ff9b::', 96], // NAT64 of any IPv4 address
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) BLOCKED.addSubnet(prefix, bits, 'ipv6');

const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is checked as the IPv4 it is. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return { address: m[1], family: 'ipv4' };
  return { address, family: net.isIPv4(address) ? 'ipv4' : 'ipv6' };
}

export interface AddressPolicy {
  /** Tests only: the feed server of a test listens on 127.0.0.1. */
  allowLoopback: boolean;
}

/** Why an address may not be fetched, or null when it may. */
export function refusedAddress(address: string, policy: AddressPolicy): string | null {
  const a = unmapped(address);
  if (LOOPBACK.check(a.address, a.family)) return policy.allowLoopback ? null : 'is this server itself (loopback)';
  if (BLOCKED.check(a.address, a.family)) return 'is on a private or reserved network';
  return null;
}

export class UnsafeAddressError extends Error {}

export interface ResolvedHost {
  address: string;
  family: 4 | 6;
}

/**
 * The address to connect to for a host, after checking every address it resolves to: one
 * private address among public ones refuses the host (a lookup may answer either).
 */
export async function resolveSafely(hostname: string, policy: AddressPolicy): Promise<ResolvedHost> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const found = net.isIP(host) ? [{ address: host, family: net.isIP(host) }] : await dns.lookup(host, { all: true, verbatim: true }).catch(() => []);
  if (!found.length) throw new UnsafeAddressError(`The host ${hostname} could not be found.`);
  for (const { address } of found) {
    const why = refusedAddress(address, policy);
    if (why) throw new UnsafeAddressError(`The host ${hostname} ${why} (${address}); only addresses on the public internet are fetched.`);
  }
  return { address: found[0].address, family: found[0].family === 6 ? 6 : 4 };
}

/** The connection goes to the address that was checked, whatever a second lookup would say. */
export const pinnedLookup = (host: ResolvedHost): LookupFunction => (_hostname, options, callback) => {
  if (options.all) (callback as unknown as (err: null, addresses: Array<{ address: string; family: number }>) => void)(null, [{ address: host.address, family: host.family }]);
  else callback(null, host.address, host.family);
};
