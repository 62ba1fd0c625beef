// Fetches a design's logo once (at create/update, never at render time) with SSRF protection:
// the host name is resolved here, EVERY resolved address is checked, and the connection is
// pinned to the checked address (so DNS rebinding between check and connect cannot happen).
// Redirects are followed by hand, re-checking each hop. The body is size-capped while it
// streams, and the image type and size come from its magic bytes, not from Content-Type.
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isForbiddenAddress, isForbiddenHostName } from '../../shared/address-policy.ts';
import { sniffImage, type ImageContentType } from './image-sniff.ts';

export { isForbiddenAddress } from '../../shared/address-policy.ts';
export { sniffImage } from './image-sniff.ts';

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

/** A logo may be any image type that sniffing recognises. */
export type LogoContentType = ImageContentType;

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
    throw new LogoFetchError(
      redirected ? 'the logo server redirected to an invalid URL' : 'the logo URL is not a valid URL',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new LogoFetchError(
      redirected
        ? `the logo server redirected to a ${url.protocol} URL; only http and https are allowed`
        : 'the logo URL must start with http:// or https://',
    );
  }
  if (url.username || url.password) throw new LogoFetchError('the logo URL must not contain a user name or password');
  return url;
}

/** Resolves and checks the host of one hop; the address to connect to. */
async function checkTarget(
  url: URL,
  redirected: boolean,
  options: LogoFetchOptions,
  untilAborted: <T>(p: Promise<T>) => Promise<T>,
): Promise<{ address: string; family: 4 | 6 }> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // Refusals say that an address was refused, never which: echoing what a name resolves to (or
  // where a redirect leads) would let a caller map the internal network through this check.
  const where = redirected ? 'the logo URL redirects to' : 'the logo URL points to';
  const allowed =
    options.isAllowed ?? ((address: string) => options.allowPrivateNetwork || !isForbiddenAddress(address));
  if (!options.allowPrivateNetwork && isForbiddenHostName(host)) {
    // The name the caller wrote is theirs to see; where a redirect led is not.
    throw new LogoFetchError(
      redirected ? `${where} an internal host name, which is refused` : `${where} an internal host name (${host})`,
    );
  }

  let addresses: { address: string; family: 4 | 6 }[];
  const literal = isIP(host);
  if (literal !== 0) {
    addresses = [{ address: host, family: literal as 4 | 6 }];
  } else {
    const resolve =
      options.resolve ??
      (async (name: string) =>
        (await dnsLookup(name, { all: true, verbatim: true })).map((a) => ({
          address: a.address,
          family: a.family as 4 | 6,
        })));
    try {
      addresses = await untilAborted(resolve(host));
    } catch (err) {
      if (err instanceof LogoFetchError) throw err;
      throw new LogoFetchError(`the logo host name could not be resolved (${host})`);
    }
  }
  if (addresses.length === 0) throw new LogoFetchError(`the logo host name could not be resolved (${host})`);
  for (const { address } of addresses) {
    if (!allowed(address)) throw new LogoFetchError(`${where} a private or reserved network address, which is refused`);
  }
  return addresses[0]!;
}

/** One request, connected to the already-checked address only. */
function requestOnce(
  url: URL,
  target: { address: string; family: 4 | 6 },
  options: LogoFetchOptions,
  signal: AbortSignal,
  timeoutError: () => LogoFetchError,
): Promise<HopResult> {
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
    headers: {
      accept: 'image/png,image/jpeg,image/gif,image/webp',
      'accept-encoding': 'identity',
      'user-agent': 'qr-service-logo-fetcher/1',
    },
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
  const timeoutError = () =>
    new LogoFetchError(`the logo server did not answer within ${formatSeconds(options.timeoutMs)}`);
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
      if (!image || image.width === 0 || image.height === 0)
        throw new LogoFetchError('the logo is not a PNG, JPEG, GIF or WebP image');
      if (image.width > MAX_LOGO_DIMENSION || image.height > MAX_LOGO_DIMENSION) {
        throw new LogoFetchError(
          `the logo is ${image.width}x${image.height} pixels; the largest allowed is ` +
            `${MAX_LOGO_DIMENSION}x${MAX_LOGO_DIMENSION}`,
        );
      }
      return { ...image, bytes: result.bytes };
    }
  } finally {
    clearTimeout(timer);
    controller.abort(); // tears down anything still open
  }
}
