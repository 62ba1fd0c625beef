// Hostnames of accounts' own domains: one spelling per name (lower case, punycode for IDNs, no
// trailing dot), so `Bücher.Example.` and `xn--bcher-kva.example` are the same domain.
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

export const MAX_HOSTNAME_LENGTH = 253;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The hostname in its one stored spelling, or why it is not a usable domain name. */
export function normalizeHostname(input: string): { hostname: string } | { problem: string } {
  const raw = input.trim().toLowerCase().replace(/\.$/, '');
  if (raw === '') return { problem: 'must not be empty' };
  if (/[:/?#@\s\\[\]]/.test(raw))
    return { problem: 'must be a bare hostname (no scheme, port, path or user), like links.example.com' };
  if (isIP(raw) !== 0) return { problem: 'must be a domain name, not an IP address' };
  const ascii = domainToASCII(raw);
  if (ascii === '') return { problem: 'is not a valid domain name' };
  if (ascii.length > MAX_HOSTNAME_LENGTH)
    return { problem: `must be at most ${MAX_HOSTNAME_LENGTH} characters (as punycode)` };
  const labels = ascii.split('.');
  if (labels.length < 2) return { problem: 'must have at least two labels, like links.example.com' };
  if (!labels.every((label) => LABEL.test(label)))
    return { problem: 'is not a valid domain name: labels are 1-63 of a-z, 0-9 and -, not starting or ending with -' };
  if (/^[0-9]+$/.test(labels.at(-1)!)) return { problem: 'must be a domain name, not an IP address' };
  return { hostname: ascii };
}

/** The Host header's name: lower case, without the port (hosts are matched as stored). */
export function hostOf(header: string | undefined): string {
  if (!header) return '';
  const end = header.startsWith('[') ? header.indexOf(']') + 1 : header.indexOf(':');
  const host = end > 0 ? header.slice(0, end) : header;
  return (host.endsWith('.') ? host.slice(0, -1) : host).toLowerCase();
}
