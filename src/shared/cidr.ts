// Address ranges as people write them (`10.0.0.0/8`, `2001:db8::/32`, a single address), for
// routing rules and for the trusted proxies of the client address.
import { BlockList, isIP } from 'node:net';

/** `10.0.0.0/8`, `2001:db8::/32`, or a single address. */
export function parseCidr(value: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, ...rest] = value.trim().split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return null;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (
    !Number.isInteger(prefix) ||
    prefix < 0 ||
    prefix > max ||
    (prefixText !== undefined && !/^\d+$/.test(prefixText))
  )
    return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** A BlockList matching any of the CIDRs; built once per rule, not per scan. */
export function cidrMatcher(cidrs: string[]): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const parsed = parseCidr(cidr)!;
    list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return list;
}
