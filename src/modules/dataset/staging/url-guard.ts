// Which addresses the import from a URL may reach (extensions section 13): in production only
// public ones, so that a URL cannot make the hub read its own network (SSRF). An address is
// checked after resolution, and the connection uses the address checked, so a name that resolves
// differently a second time (DNS rebinding) gains nothing.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

// Two lists: a BlockList holding ::ffff:0:0/96 matches every IPv4 address checked against it.
const notPublic = new BlockList();
const notPublic6 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) notPublic.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
  // IPv4 embedded in IPv6 (compatible, mapped, translated, 6to4, Teredo) is judged by the IPv4 address below.
  ['::', 96], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['64:ff9b:1::', 48], ['2002::', 16], ['2001::', 32],
] as const) notPublic6.addSubnet(net, prefix, 'ipv6');

/** The IPv4 address an IPv4-mapped IPv6 address (::ffff:a.b.c.d or ::ffff:xxxx:xxxx) stands for. */
function mappedIpv4(address: string): string | undefined {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether an address (IPv4 or IPv6 text) is public: none of loopback, private, link-local, unique local, reserved. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !notPublic.check(address, 'ipv4');
  if (family !== 6) return false;
  const v4 = mappedIpv4(address);
  if (v4 !== undefined) return isPublicAddress(v4);
  return !notPublic6.check(address, 'ipv6');
}

export class RefusedAddressError extends Error {}

/** How a fetch is guarded: `publicOnly` in production; `allowHosts` are exempt. */
export interface AddressPolicy { publicOnly: boolean; allowHosts: readonly string[] }

/** The host of a URL without IPv6 brackets, in lower case. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();

/** Refuses a URL whose host is an address that is not public (a literal address is never looked up). */
export function checkLiteralHost(url: URL, policy: AddressPolicy): void {
  const host = hostOf(url);
  if (!policy.publicOnly || policy.allowHosts.includes(host)) return;
  if (isIP(host) !== 0 && !isPublicAddress(host)) throw new RefusedAddressError(`The address ${host} is not public: the hub does not fetch it.`);
}

/** A DNS lookup for the connection that fails when the name resolves to any address that is not public. */
export function guardedLookup(host: string, policy: AddressPolicy): LookupFunction | undefined {
  if (!policy.publicOnly || policy.allowHosts.includes(host.toLowerCase())) return undefined;
  return ((hostname: string, options: { all?: boolean }, callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, options.all ? [] : '', undefined);
      const refused = addresses.find((a) => !isPublicAddress(a.address));
      if (refused || addresses.length === 0) {
        return callback(new RefusedAddressError(`${hostname} resolves to ${refused?.address ?? 'no address'}, which is not public: the hub does not fetch it.`), options.all ? [] : '', undefined);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  }) as LookupFunction;
}
