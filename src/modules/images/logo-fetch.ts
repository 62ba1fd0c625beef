// Fetches a design's logo once (at create/update, never at render time) with SSRF protection:
// the host name is resolved here, EVERY resolved address is checked, and the connection is
// pinned to the checked address (so DNS rebinding between check and connect cannot happen).
// Redirects are followed by hand, re-checking each hop. The body is size-capped while it
// streams, and the image type and size come from its magic bytes, not from Content-Type.
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export interface LogoFetchOptions {
  /** ALLOW_PRIVATE_NETWORK_TARGETS=true lifts the address and host-name checks (local testing only). */
  allowPrivateNetwork: boolean;
  /** Whole fetch, redirects and DNS included; default 5000. */
  timeoutMs: number;
  /** Default 1 MiB (1_048_576). */
  maxBytes: number;
  /** Default 3. */
  maxRedirects: number;
  /** DNS resolution, injectable for tests; default node:dns/promises lookup(host, { all: true }). */
  resolve?: (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;
  /**
   * Address policy override (tests): true when a connection to this resolved address is allowed.
   * Replaces the default, which is `allowPrivateNetwork || !isForbiddenAddress(address)`.
   * The host-name check (localhost, metadata.google.internal, …) still applies unless allowPrivateNetwork.
   */
  isAllowed?: (address: string) => boolean;
}

export const LOGO_FETCH_DEFAULTS = {
  allowPrivateNetwork: false,
  timeoutMs: 5000,
  maxBytes: 1_048_576,
  maxRedirects: 3,
} as const satisfies LogoFetchOptions;

/** Largest accepted logo, in pixels per side. */
export const MAX_LOGO_DIMENSION = 4096;

export type LogoContentType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

export interface FetchedLogo {
  contentType: LogoContentType;
  bytes: Buffer;
  width: number;
  height: number;
}

export class LogoFetchError extends Error {
  /** A short user-facing sentence, e.g. "the logo server answered 404". */
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'LogoFetchError';
  }
}

// ---------------------------------------------------------------------------------------------
// Address policy

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

/** Host names refused before any DNS lookup (unless allowPrivateNetwork). */
const FORBIDDEN_HOSTS = new Set(['localhost', 'metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);
const FORBIDDEN_HOST_SUFFIXES = ['.localhost', '.internal', '.local', '.home.arpa'];

function isForbiddenHostName(hostname: string): boolean {
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
  const groups = rest === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
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

// ---------------------------------------------------------------------------------------------
// Image sniffing

/** Type and pixel size from the header bytes of a PNG, JPEG, GIF or WebP image; null for anything else. */
export function sniffImage(b: Uint8Array): { contentType: LogoContentType; width: number; height: number } | null {
  const u16be = (i: number) => (b[i]! << 8) | b[i + 1]!;
  const u16le = (i: number) => b[i]! | (b[i + 1]! << 8);
  const u24le = (i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
  const u32be = (i: number) => u16be(i) * 65536 + u16be(i + 2);
  const ascii = (i: number, s: string) => b.length >= i + s.length && [...s].every((c, k) => b[i + k] === c.charCodeAt(0));

  // PNG: signature, then the IHDR chunk with big-endian width and height.
  if (b.length >= 24 && startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) && ascii(12, 'IHDR')) {
    return { contentType: 'image/png', width: u32be(16), height: u32be(20) };
  }
  // GIF: logical screen size right after the signature.
  if (b.length >= 10 && (ascii(0, 'GIF87a') || ascii(0, 'GIF89a'))) {
    return { contentType: 'image/gif', width: u16le(6), height: u16le(8) };
  }
  // WebP: RIFF container, size from the first chunk (lossy, lossless or extended).
  if (b.length >= 30 && ascii(0, 'RIFF') && ascii(8, 'WEBP')) {
    if (ascii(12, 'VP8 ') && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) {
      return { contentType: 'image/webp', width: u16le(26) & 0x3fff, height: u16le(28) & 0x3fff };
    }
    if (ascii(12, 'VP8L') && b[20] === 0x2f) {
      const bits = u16le(21) + u16le(23) * 65536;
      return { contentType: 'image/webp', width: (bits & 0x3fff) + 1, height: (Math.floor(bits / 16384) & 0x3fff) + 1 };
    }
    if (ascii(12, 'VP8X')) return { contentType: 'image/webp', width: u24le(24) + 1, height: u24le(27) + 1 };
    return null;
  }
  // JPEG: walk the marker segments up to the first start-of-frame.
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) {
    let i = 2;
    while (i + 4 <= b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1]!;
      if (marker === 0xff) {
        i += 1; // fill byte
        continue;
      }
      if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
        i += 2; // standalone marker, no length
        continue;
      }
      if (marker === 0xd9 || marker === 0xda) return null; // end of image / scan data before any frame
      const length = u16be(i + 2);
      if (length < 2) return null;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        if (i + 9 > b.length) return null;
        return { contentType: 'image/jpeg', width: u16be(i + 7), height: u16be(i + 5) };
      }
      i += 2 + length;
    }
    return null;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Fetching

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

type HopResult = { kind: 'redirect'; status: number; location: string | undefined } | { kind: 'body'; bytes: Buffer };

function formatBytes(n: number): string {
  if (n >= 1_048_576 && n % 1_048_576 === 0) return `${n / 1_048_576} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

function parseTarget(raw: string, redirected: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new LogoFetchError(redirected ? 'the logo server redirected to an invalid URL' : 'the logo URL is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LogoFetchError(redirected ? `the logo server redirected to a ${url.protocol} URL; only http and https are allowed` : 'the logo URL must start with http:// or https://');
  }
  if (url.username || url.password) throw new LogoFetchError('the logo URL must not contain a user name or password');
  return url;
}

/** Resolves and checks the host of one hop; the address to connect to. */
async function checkTarget(url: URL, redirected: boolean, options: LogoFetchOptions, untilAborted: <T>(p: Promise<T>) => Promise<T>): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const where = redirected ? 'the logo URL redirects to' : 'the logo URL resolves to';
  const allowed = options.isAllowed ?? ((address: string) => options.allowPrivateNetwork || !isForbiddenAddress(address));
  if (!options.allowPrivateNetwork && isForbiddenHostName(host)) {
    throw new LogoFetchError(`${redirected ? 'the logo URL redirects to' : 'the logo URL points to'} an internal host name (${host})`);
  }

  let addresses: { address: string; family: 4 | 6 }[];
  const literal = isIP(host);
  if (literal !== 0) {
    addresses = [{ address: host, family: literal as 4 | 6 }];
  } else {
    const resolve = options.resolve ?? (async (name: string) => (await dnsLookup(name, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 })));
    try {
      addresses = await untilAborted(resolve(host));
    } catch (err) {
      if (err instanceof LogoFetchError) throw err;
      throw new LogoFetchError(`the logo host name could not be resolved (${host})`);
    }
  }
  if (addresses.length === 0) throw new LogoFetchError(`the logo host name could not be resolved (${host})`);
  for (const { address } of addresses) {
    if (!allowed(address)) throw new LogoFetchError(`${where} a private address (${address})`);
  }
  return addresses[0]!;
}

/** One request, connected to the already-checked address only. */
function requestOnce(url: URL, target: { address: string; family: 4 | 6 }, options: LogoFetchOptions, signal: AbortSignal, timeoutError: () => LogoFetchError): Promise<HopResult> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // Pin: whatever name the socket layer would look up, it gets the address we checked.
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    process.nextTick(() => {
      if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    });
  };
  const common = {
    hostname: host, // Host header and certificate check use the original name
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: 'GET',
    headers: { accept: 'image/png,image/jpeg,image/gif,image/webp', 'accept-encoding': 'identity', 'user-agent': 'qr-service-logo-fetcher/1' },
    agent: false as const, // a fresh socket per request, destroyed with it
    lookup,
    signal,
  };
  const tooLarge = () => new LogoFetchError(`the logo is larger than ${formatBytes(options.maxBytes)}`);

  return new Promise<HopResult>((resolve, reject) => {
    let settled = false;
    const req =
      url.protocol === 'https:'
        ? https.request({ ...common, servername: isIP(host) === 0 ? host : undefined })
        : http.request(common);
    const finish = (result: HopResult) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const fail = (err: LogoFetchError) => {
      if (settled) return;
      settled = true;
      req.destroy();
      reject(err);
    };
    const onError = (err: NodeJS.ErrnoException) => {
      if (signal.aborted) return fail(timeoutError());
      fail(new LogoFetchError(`the logo could not be downloaded (${err.code ?? err.message})`));
    };

    req.on('error', onError);
    req.on('response', (res) => {
      res.on('error', onError);
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status)) {
        finish({ kind: 'redirect', status, location: res.headers.location });
        req.destroy();
        return;
      }
      if (status < 200 || status > 299) return fail(new LogoFetchError(`the logo server answered ${status}`));
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) return fail(tooLarge());

      const chunks: Buffer[] = [];
      let total = 0;
      res.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > options.maxBytes) return fail(tooLarge());
        chunks.push(chunk);
      });
      res.on('end', () => finish({ kind: 'body', bytes: Buffer.concat(chunks, total) }));
      res.on('close', () => {
        if (!res.complete) onError(Object.assign(new Error('connection closed early'), { code: 'ECONNRESET' }));
      });
    });
    req.end();
  });
}

/**
 * Downloads and checks a logo. Throws LogoFetchError (with a user-facing reason) for anything
 * refused: bad URL, forbidden address, non-2xx, too many redirects, too large, too slow, not a
 * PNG/JPEG/GIF/WebP image, or larger than 4096x4096 pixels.
 */
export async function fetchLogo(url: string, options: LogoFetchOptions): Promise<FetchedLogo> {
  const controller = new AbortController();
  const timeoutError = () => new LogoFetchError(`the logo server did not answer within ${formatSeconds(options.timeoutMs)}`);
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const signal = controller.signal;
  const untilAborted = <T>(p: Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (signal.aborted) return reject(timeoutError());
      const onAbort = () => reject(timeoutError());
      signal.addEventListener('abort', onAbort, { once: true });
      p.then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });

  try {
    let current = parseTarget(url, false);
    for (let hop = 0; ; hop++) {
      const target = await checkTarget(current, hop > 0, options, untilAborted);
      if (signal.aborted) throw timeoutError();
      const result = await requestOnce(current, target, options, signal, timeoutError);
      if (result.kind === 'redirect') {
        if (hop >= options.maxRedirects) throw new LogoFetchError('too many redirects');
        if (!result.location) throw new LogoFetchError(`the logo server answered ${result.status} without a Location`);
        let next: string;
        try {
          next = new URL(result.location, current).href;
        } catch {
          throw new LogoFetchError('the logo server redirected to an invalid URL');
        }
        current = parseTarget(next, true);
        continue;
      }
      const image = sniffImage(result.bytes);
      if (!image || image.width === 0 || image.height === 0) throw new LogoFetchError('the logo is not a PNG, JPEG, GIF or WebP image');
      if (image.width > MAX_LOGO_DIMENSION || image.height > MAX_LOGO_DIMENSION) {
        throw new LogoFetchError(`the logo is ${image.width}x${image.height} pixels; the largest allowed is ${MAX_LOGO_DIMENSION}x${MAX_LOGO_DIMENSION}`);
      }
      return { ...image, bytes: result.bytes };
    }
  } finally {
    clearTimeout(timer);
    controller.abort(); // tears down anything still open
  }
}
