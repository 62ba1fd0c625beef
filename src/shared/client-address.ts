// The visitor's address behind reverse proxies. X-Forwarded-For is a list each proxy appends
// to, so only its right end was written by proxies we run; anything to the left may come from
// the client. The address is the rightmost entry that is not one of our proxies (with
// TRUSTED_PROXIES), or the rightmost entry (TRUST_PROXY=true alone: exactly one proxy in front).
// The leftmost entry, which clients write themselves, is trusted only when every hop is ours.
import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import { cidrMatcher } from './cidr.ts';

export interface ProxyTrust {
  /** One proxy in front: take the rightmost X-Forwarded-For entry. */
  trustProxy: boolean;
  /** Addresses and ranges of our proxies; when set, the header is read only from them. */
  trustedProxies: readonly string[];
}

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) compares as `10.0.0.1`. */
const plain = (address: string) =>
  address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;

export type ClientAddress = (headers: IncomingHttpHeaders, socketAddress: string | undefined) => string | null;

export function createClientAddress({ trustProxy, trustedProxies }: ProxyTrust): ClientAddress {
  const socketOnly: ClientAddress = (_headers, socketAddress) => (socketAddress ? plain(socketAddress) : null);
  if (!trustProxy && trustedProxies.length === 0) return socketOnly;
  const proxies = cidrMatcher([...trustedProxies]);
  const isProxy = (address: string) => {
    const family = isIP(address);
    return family !== 0 && proxies.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };

  return (headers, socketAddress) => {
    const peer = socketAddress ? plain(socketAddress) : null;
    // With a list of proxies, a request that did not come from one of them carries no header of ours.
    if (trustedProxies.length > 0 && (peer === null || !isProxy(peer))) return peer;
    const header = headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((entry) => plain(entry.trim()))
      .filter((entry) => entry !== '');
    if (hops.length === 0) return peer;
    if (trustedProxies.length === 0) return isIP(hops.at(-1)!) !== 0 ? hops.at(-1)! : peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      // Garbage where an address should be: nothing to its left can be believed either.
      if (isIP(hop) === 0) return peer;
      if (!isProxy(hop)) return hop;
    }
    // Every hop is one of ours: the request began inside.
    return hops[0]!;
  };
}
