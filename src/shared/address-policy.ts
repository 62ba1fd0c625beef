// Which network destinations a server-side request to a user-supplied URL may reach: no
// loopback, private, link-local (cloud metadata), CGNAT, multicast, reserved or documentation
// addresses, including IPv6 forms that wrap such an IPv4 address, and no internal host names.
// The logo fetcher (images) and webhook targets (webhooks) both use it, so SSRF rules live in
// one place, below both.
import { BlockList, isIP } from 'node:net';

/** IPv4 ranges no server-side request may reach. */
const FORBIDDEN_V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // deprecated 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast 255.255.255.255
];

/**
 * IPv6 ranges refused whole: their own kinds, and the embeddings whose IPv4 address cannot be
 * read reliably, so a public-looking one might still lead inside.
 */
const FORBIDDEN_V6: [string, number][] = [
  ['::', 96], // unspecified (::), loopback (::1), deprecated IPv4-compatible (::a.b.c.d)
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): where the IPv4 address sits is the operator's choice
  ['100::', 64], // discard-only
  ['2001::', 32], // Teredo: the client address is obfuscated, reached through relays; retired
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['fc00::', 7], // unique local (private)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
];

/**
 * IPv6 forms that carry an IPv4 address a connection ends up at: each forbidden IPv4 range,
 * written inside the form, is a forbidden IPv6 range (the prefix grows by the bits before it).
 */
const EMBEDDINGS: { bitsBefore: number; write: (octets: number[]) => string }[] = [
  { bitsBefore: 96, write: (o) => `::ffff:${o.join('.')}` }, // IPv4-mapped ::ffff:0:0/96
  { bitsBefore: 96, write: (o) => `::ffff:0:${o.join('.')}` }, // IPv4-translated ::ffff:0:0:0/96 (RFC 6145)
  { bitsBefore: 96, write: (o) => `64:ff9b::${o.join('.')}` }, // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052)
  { bitsBefore: 16, write: (o) => `2002:${hex(o[0]!, o[1]!)}:${hex(o[2]!, o[3]!)}::` }, // 6to4 2002::/16
];
const hex = (high: number, low: number) => ((high << 8) | low).toString(16);

const FORBIDDEN = new BlockList();
for (const [net, prefix] of FORBIDDEN_V4) {
  FORBIDDEN.addSubnet(net, prefix, 'ipv4');
  const octets = net.split('.').map(Number);
  for (const { bitsBefore, write } of EMBEDDINGS) FORBIDDEN.addSubnet(write(octets), bitsBefore + prefix, 'ipv6');
}
for (const [net, prefix] of FORBIDDEN_V6) FORBIDDEN.addSubnet(net, prefix, 'ipv6');

/** Host names refused before any DNS lookup, since they name internal services wherever they resolve. */
const FORBIDDEN_HOSTS = new Set([
  'localhost',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);
const FORBIDDEN_HOST_SUFFIXES = ['.localhost', '.internal', '.local', '.home.arpa'];

export function isForbiddenHostName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  return FORBIDDEN_HOSTS.has(name) || FORBIDDEN_HOST_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

/**
 * True when a connection to this IP address must be refused: loopback, unspecified, private,
 * link-local (cloud metadata), CGNAT, multicast, broadcast, reserved, documentation ranges, and
 * IPv6 forms that embed such an IPv4 address. Anything that is not an IP address is forbidden.
 */
export function isForbiddenAddress(address: string): boolean {
  const text = address.trim().replace(/^\[(.*)\]$/, '$1');
  if (text.includes('%')) return true; // zone ids only make sense for link-local
  const version = isIP(text);
  if (version === 0) return true;
  return FORBIDDEN.check(text, version === 4 ? 'ipv4' : 'ipv6');
}
