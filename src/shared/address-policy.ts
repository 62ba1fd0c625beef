// Which network destinations a server-side request to a user-supplied URL may reach: no
// loopback, private, link-local (cloud metadata), CGNAT, multicast, reserved or documentation
// addresses, including IPv6 forms that wrap such an IPv4 address, and no internal host names.
// The logo fetcher (images) and webhook targets (webhooks) both use it, so SSRF rules live in
// one place, below both.
import { BlockList, isIP } from 'node:net';

const FORBIDDEN_V4 = new BlockList();
for (const [net, prefix] of [
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
] as const) {
  FORBIDDEN_V4.addSubnet(net, prefix, 'ipv4');
}

const FORBIDDEN_V6 = new BlockList();
for (const [net, prefix] of [
  ['::', 96], // unspecified (::), loopback (::1), deprecated IPv4-compatible (::a.b.c.d)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['fc00::', 7], // unique local (private)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // deprecated site-local
  ['ff00::', 8], // multicast
] as const) {
  FORBIDDEN_V6.addSubnet(net, prefix, 'ipv6');
}

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

/** The 16 bytes of a valid IPv6 address (no zone id), or null. */
function ipv6Bytes(address: string): Uint8Array | null {
  if (isIP(address) !== 6 || address.includes('%')) return null;
  let text = address;
  const tail: number[] = [];
  const dotted = /:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted) {
    const quad = dotted[1]!;
    for (const part of quad.split('.')) tail.push(Number(part));
    text = text.slice(0, text.length - quad.length) + '0:0'; // placeholder groups, overwritten below
  }
  const [head = '', rest] = text.split('::') as [string, string | undefined];
  const groupsOf = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const left = groupsOf(head);
  const right = rest === undefined ? [] : groupsOf(rest);
  const groups =
    rest === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  if (groups.length !== 8) return null;
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[i * 2] = g >> 8;
    bytes[i * 2 + 1] = g & 0xff;
  });
  if (tail.length === 4) bytes.set(tail, 12);
  return bytes;
}

const v4At = (b: Uint8Array, i: number, xor = 0) => [0, 1, 2, 3].map((k) => (b[i + k]! ^ xor) & 0xff).join('.');
const startsWith = (b: Uint8Array, prefix: number[]) => prefix.every((v, i) => b[i] === v);

/** IPv4 addresses an IPv6 address carries: mapped, NAT64, 6to4, Teredo (client). */
function embeddedIPv4(b: Uint8Array): string[] {
  if (startsWith(b, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff])) return [v4At(b, 12)]; // ::ffff:0:0/96
  if (startsWith(b, [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return [v4At(b, 12)]; // 64:ff9b::/96
  if (startsWith(b, [0x20, 0x02])) return [v4At(b, 2)]; // 2002::/16
  if (startsWith(b, [0x20, 0x01, 0, 0])) return [v4At(b, 4), v4At(b, 12, 0xff)]; // 2001::/32: server, ~client
  return [];
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
  if (version === 4) return FORBIDDEN_V4.check(text, 'ipv4');
  if (version !== 6) return true;
  const bytes = ipv6Bytes(text);
  if (!bytes) return true;
  if (embeddedIPv4(bytes).some((v4) => FORBIDDEN_V4.check(v4, 'ipv4'))) return true;
  return FORBIDDEN_V6.check(text, 'ipv6');
}
