// Where a webhook may be sent: the SSRF rules of logos (images/address-policy.ts) applied to the
// URL when it is registered and to every resolved address at every attempt. The attempt then
// connects to the checked address only (send.ts pins it), so DNS rebinding between the check
// and the connection cannot happen.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isForbiddenAddress, isForbiddenHostName } from '../../shared/address-policy.ts';

export type ResolvedAddress = { address: string; family: 4 | 6 };
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export interface TargetPolicy {
  /** ALLOW_PRIVATE_NETWORK_TARGETS=true lifts the address and host-name checks (local testing only). */
  allowPrivateNetwork: boolean;
  /** http:// as well as https:// (with ALLOW_PRIVATE_NETWORK_TARGETS, or in development). */
  allowHttp: boolean;
  /** DNS resolution, injectable for tests; default: every address of node:dns lookup. */
  resolve?: Resolve;
}

/** A target the policy refuses; the message is user-facing. */
export class TargetRefused extends Error {
  override name = 'TargetRefused';
}

const systemResolve: Resolve = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family as 4 | 6,
  }));

const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/** Problems of the URL itself, before any lookup: scheme, credentials, internal names, private IP literals. */
export function urlProblems(raw: string, policy: TargetPolicy): string[] {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return ['must be an absolute https:// URL'];
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    return [
      url.protocol === 'http:'
        ? 'must be an https:// URL (http:// only in development or with ALLOW_PRIVATE_NETWORK_TARGETS=true)'
        : 'must be an https:// URL',
    ];
  }
  const problems: string[] = [];
  if (url.username || url.password) problems.push('must not contain a user name or password');
  if (!policy.allowPrivateNetwork) {
    // The URL parser has already turned 2130706433 or 0x7f.1 into 127.0.0.1.
    const host = bareHost(url);
    if (isForbiddenHostName(host)) problems.push(`points to an internal host name (${host})`);
    else if (isIP(host) !== 0 && isForbiddenAddress(host))
      problems.push(`points to a private or reserved address (${host})`);
  }
  return problems;
}

/**
 * Resolves the URL's host and checks EVERY address it has; returns the one to connect to.
 * Throws TargetRefused for a URL the policy refuses, a private address or a name that does not resolve.
 */
export async function checkedAddress(url: URL, policy: TargetPolicy): Promise<ResolvedAddress> {
  const [problem] = urlProblems(url.href, policy);
  if (problem) throw new TargetRefused(`the URL ${problem}`);
  const host = bareHost(url);
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal !== 0) {
    addresses = [{ address: host, family: literal as 4 | 6 }];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) throw new TargetRefused(`the host name could not be resolved (${host})`);
  }
  if (!policy.allowPrivateNetwork) {
    for (const { address } of addresses) {
      // Never which address: echoing it would let a caller map internal names through this check.
      if (isForbiddenAddress(address))
        throw new TargetRefused('the host name resolves to a private or reserved address, which is refused');
    }
  }
  return addresses[0]!;
}

/**
 * The registration check of a host name: one that resolves to a private address is refused
 * now rather than failing every delivery later. A name that does not resolve (yet) is
 * accepted: it is checked again at every attempt anyway.
 */
export async function registrationProblem(raw: string, policy: TargetPolicy, timeoutMs = 2000): Promise<string | null> {
  if (policy.allowPrivateNetwork) return null;
  const url = new URL(raw);
  if (isIP(bareHost(url)) !== 0) return null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    return await Promise.race([
      checkedAddress(url, policy).then(
        () => null,
        (err: unknown) =>
          err instanceof TargetRefused && !err.message.includes('could not be resolved')
            ? err.message.replace(/^the host name /, '')
            : null,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
