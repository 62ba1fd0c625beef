// Logo fetcher: SSRF policy, redirects, limits and magic-byte checks.
// Network rule: traffic only to loopback servers started here; public addresses appear only in
// pure isForbiddenAddress checks. Every SSRF refusal is also checked for "no connection attempt"
// through a guard on net.Socket.prototype.connect (every client socket goes through it).
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { Resvg } from '@resvg/resvg-js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  fetchLogo,
  isForbiddenAddress,
  LogoFetchError,
  sniffImage,
  type LogoFetchOptions,
} from '../../src/modules/images/logo-fetch.ts';

// ---------------------------------------------------------------------------------------------
// Helpers

function png(width: number, height: number): Buffer {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" ` +
    `height="${height}" fill="#c00"/></svg>`;
  return Buffer.from(new Resvg(svg).render().asPng());
}

/** A real 1x1 GIF. */
const GIF_1X1 = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');

/** JPEG headers up to a baseline SOF0 frame (64x32), with fill bytes and a DHT segment first. */
function jpeg(width: number, height: number, sof = 0xc0): Buffer {
  return Buffer.from([
    0xff,
    0xd8, // SOI
    0xff,
    0xe0,
    0x00,
    0x10,
    0x4a,
    0x46,
    0x49,
    0x46,
    0x00,
    0x01,
    0x01,
    0x00,
    0x00,
    0x01,
    0x00,
    0x01,
    0x00,
    0x00, // APP0 JFIF
    0xff,
    0xc4,
    0x00,
    0x06,
    0x00,
    0x00,
    0x00,
    0x00, // DHT (0xc4 is no frame, must be skipped)
    0xff,
    0xff, // fill byte
    0xff,
    sof,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
    0xff,
    0xd9, // EOI
  ]);
}

function riff(chunk: string, payload: number[]): Buffer {
  const body = Buffer.concat([
    Buffer.from('WEBP'),
    Buffer.from(chunk),
    Buffer.alloc(4),
    Buffer.from(payload),
    Buffer.alloc(16),
  ]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0);
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body]);
}
const webpLossy = (w: number, h: number) =>
  riff('VP8 ', [0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, w & 0xff, w >> 8, h & 0xff, h >> 8]);
function webpLossless(w: number, h: number): Buffer {
  const bits = (w - 1) | ((h - 1) << 14);
  return riff('VP8L', [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >>> 24) & 0xff]);
}
const webpExtended = (w: number, h: number) =>
  riff('VP8X', [
    0,
    0,
    0,
    0,
    (w - 1) & 0xff,
    ((w - 1) >> 8) & 0xff,
    (w - 1) >> 16,
    (h - 1) & 0xff,
    ((h - 1) >> 8) & 0xff,
    (h - 1) >> 16,
  ]);

interface TestServer {
  url: string;
  port: number;
  requests: { url: string; host: string | undefined }[];
  /** Resolves once every server-side socket seen so far has closed. */
  allSocketsClosed(): Promise<void>;
  close(): Promise<void>;
}

const servers: TestServer[] = [];

async function serve(handler: http.RequestListener, host = '127.0.0.1'): Promise<TestServer> {
  const requests: TestServer['requests'] = [];
  const closed: Promise<void>[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', host: req.headers.host });
    handler(req, res);
  });
  server.on('connection', (socket) => closed.push(new Promise((resolve) => socket.once('close', () => resolve()))));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const entry: TestServer = {
    url: `http://${host}:${port}`,
    port,
    requests,
    allSocketsClosed: async () => {
      await Promise.all(closed);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(entry);
  return entry;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const LOCAL: LogoFetchOptions = { allowPrivateNetwork: true, timeoutMs: 5000, maxBytes: 1_048_576, maxRedirects: 3 };
const STRICT: LogoFetchOptions = { allowPrivateNetwork: false, timeoutMs: 5000, maxBytes: 1_048_576, maxRedirects: 3 };

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof LogoFetchError) return err.reason;
    throw err;
  }
  throw new Error('expected a LogoFetchError');
}

const sendBody =
  (contentType: string, body: Buffer | string, status = 200): http.RequestListener =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': contentType });
    res.end(body);
  };

// ---------------------------------------------------------------------------------------------

describe('isForbiddenAddress', () => {
  it.each([
    // unspecified 0.0.0.0/8
    ['0.0.0.0', true],
    ['0.255.255.255', true],
    ['1.0.0.0', false],
    // private 10/8
    ['9.255.255.255', false],
    ['10.0.0.0', true],
    ['10.0.0.5', true],
    ['10.255.255.255', true],
    ['11.0.0.0', false],
    // CGNAT 100.64/10
    ['100.63.255.255', false],
    ['100.64.0.0', true],
    ['100.127.255.255', true],
    ['100.128.0.0', false],
    // loopback 127/8
    ['126.255.255.255', false],
    ['127.0.0.1', true],
    ['127.255.255.255', true],
    ['128.0.0.0', false],
    // link-local and cloud metadata 169.254/16
    ['169.253.255.255', false],
    ['169.254.0.0', true],
    ['169.254.169.254', true],
    ['169.254.255.255', true],
    ['169.255.0.0', false],
    // private 172.16/12
    ['172.15.255.255', false],
    ['172.16.0.0', true],
    ['172.31.255.255', true],
    ['172.32.0.0', false],
    // private 192.168/16
    ['192.167.255.255', false],
    ['192.168.0.0', true],
    ['192.168.1.1', true],
    ['192.168.255.255', true],
    ['192.169.0.0', false],
    // reserved / documentation / benchmarking
    ['192.0.0.1', true],
    ['192.0.2.1', true],
    ['198.18.0.1', true],
    ['198.19.255.255', true],
    ['198.20.0.0', false],
    ['198.51.100.1', true],
    ['203.0.113.1', true],
    // multicast 224/4, reserved 240/4, broadcast
    ['223.255.255.255', false],
    ['224.0.0.0', true],
    ['239.255.255.255', true],
    ['240.0.0.0', true],
    ['255.255.255.255', true],
    // public IPv4
    ['8.8.8.8', false],
    ['1.1.1.1', false],
    ['93.184.216.34', false],
    // IPv6 loopback, unspecified, private, link-local, multicast
    ['::1', true],
    ['::', true],
    ['[::1]', true],
    ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', false],
    ['fc00::', true],
    ['fd12:3456::1', true],
    ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['fe00::', false],
    ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', false],
    ['fe80::', true],
    ['fe80::1', true],
    ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['fe80::1%eth0', true],
    ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['ff00::', true],
    ['ff02::1', true],
    ['2001:db8::1', true],
    // IPv4-mapped IPv6, dotted and hex
    ['::ffff:10.0.0.1', true],
    ['::ffff:a00:1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:169.254.169.254', true],
    ['::ffff:172.16.0.0', true],
    ['::ffff:172.15.255.255', false],
    ['::ffff:8.8.8.8', false],
    ['0:0:0:0:0:ffff:192.168.0.1', true],
    // IPv4-translated (RFC 6145), dotted and hex: unwrapped, the IPv4 rules apply
    ['::ffff:0:7f00:1', true],
    ['::ffff:0:127.0.0.1', true],
    ['0:0:0:0:ffff:0:a9fe:a9fe', true],
    ['::ffff:0:10.255.255.255', true],
    ['::ffff:0:100.64.0.1', true],
    ['::ffff:0:8.8.8.8', false],
    ['::ffff:0:808:808', false],
    ['::ffff:0:11.0.0.0', false],
    // deprecated IPv4-compatible: refused whole, public or not
    ['::127.0.0.1', true],
    ['::8.8.8.8', true],
    ['::808:808', true],
    // NAT64 and 6to4 embedding a forbidden IPv4
    ['64:ff9b::10.0.0.1', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['64:ff9b::8.8.8.8', false],
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::ffff:ffff', true],
    ['64:ff9b::c0a8:0', true],
    ['64:ff9b::c0a9:0', false],
    // local-use NAT64 (RFC 8215): refused whole, since where the IPv4 address sits is the operator's choice
    ['64:ff9b:1::1', true],
    ['64:ff9b:1:808:808::', true],
    ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', true],
    ['64:ff9b:2::1', false],
    ['2002:0a00:0001::', true],
    ['2002:7f00:1::1', true],
    ['2002:7fff:ffff:ffff::1', true],
    ['2002:a9fe:a9fe::', true],
    ['2002:6440:1::', true],
    ['2002:0808:0808::1', false],
    ['2002:0b00:0::', false],
    // Teredo (2001::/32): refused whole, public server and client or not
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true],
    ['2001:0:808:808:0:fbaa:f7f7:f7f7', true],
    ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', true],
    ['2001:1::1', false],
    // public IPv6
    ['2001:4860:4860::8888', false],
    ['2606:4700:4700::1111', false],
    // not an address at all
    ['localhost', true],
    ['', true],
    ['10.0.0.256', true],
  ] as const)('%s → forbidden %s', (address, forbidden) => {
    expect(isForbiddenAddress(address)).toBe(forbidden);
  });
});

describe('sniffImage (magic bytes, no network)', () => {
  it('reads PNG type and size', () => {
    expect(sniffImage(png(37, 19))).toEqual({ contentType: 'image/png', width: 37, height: 19 });
  });

  it('reads GIF type and size', () => {
    expect(sniffImage(GIF_1X1)).toEqual({ contentType: 'image/gif', width: 1, height: 1 });
    const gif87 = Buffer.concat([Buffer.from('GIF87a'), Buffer.from([0x2c, 0x01, 0xc8, 0x00]), Buffer.alloc(10)]);
    expect(sniffImage(gif87)).toEqual({ contentType: 'image/gif', width: 300, height: 200 });
  });

  it('reads JPEG type and size from the first SOF segment (baseline and progressive)', () => {
    expect(sniffImage(jpeg(64, 32))).toEqual({ contentType: 'image/jpeg', width: 64, height: 32 });
    expect(sniffImage(jpeg(1024, 768, 0xc2))).toEqual({ contentType: 'image/jpeg', width: 1024, height: 768 });
  });

  it('reads WebP lossy, lossless and extended sizes', () => {
    expect(sniffImage(webpLossy(320, 240))).toEqual({ contentType: 'image/webp', width: 320, height: 240 });
    expect(sniffImage(webpLossless(1, 1))).toEqual({ contentType: 'image/webp', width: 1, height: 1 });
    expect(sniffImage(webpLossless(4096, 3000))).toEqual({ contentType: 'image/webp', width: 4096, height: 3000 });
    expect(sniffImage(webpExtended(5000, 70000))).toEqual({ contentType: 'image/webp', width: 5000, height: 70000 });
  });

  it('rejects SVG, HTML, empty and truncated data', () => {
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'))).toBeNull();
    expect(sniffImage(Buffer.from('<?xml version="1.0"?><svg/>'))).toBeNull();
    expect(sniffImage(Buffer.from('<!doctype html><html><body>hi</body></html>'))).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
    expect(sniffImage(png(10, 10).subarray(0, 20))).toBeNull();
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
    expect(sniffImage(riff('VP8Z', [1, 2, 3]))).toBeNull();
  });
});

describe('fetchLogo over loopback (allowPrivateNetwork: true)', () => {
  it('returns the bytes, type and size of a good PNG', async () => {
    const image = png(120, 80);
    const server = await serve(sendBody('image/png', image));
    const logo = await fetchLogo(`${server.url}/logo.png?v=1`, LOCAL);
    expect(logo.contentType).toBe('image/png');
    expect(logo.width).toBe(120);
    expect(logo.height).toBe(80);
    expect(logo.bytes.equals(image)).toBe(true);
    expect(server.requests).toEqual([{ url: '/logo.png?v=1', host: `127.0.0.1:${server.port}` }]);
  });

  it('trusts magic bytes over Content-Type: a GIF sent as octet-stream is a GIF', async () => {
    const server = await serve(sendBody('application/octet-stream', GIF_1X1));
    const logo = await fetchLogo(`${server.url}/x`, LOCAL);
    expect(logo).toMatchObject({ contentType: 'image/gif', width: 1, height: 1 });
  });

  it('connects to the resolved address only, keeping the original Host header (pinned, one lookup)', async () => {
    const server = await serve(sendBody('image/png', png(8, 8)));
    const resolve = vi.fn(async () => [{ address: '127.0.0.1', family: 4 as const }]);
    const logo = await fetchLogo(`http://logo.test:${server.port}/a.png`, { ...LOCAL, resolve });
    expect(logo.width).toBe(8);
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(resolve).toHaveBeenCalledWith('logo.test');
    expect(server.requests[0]?.host).toBe(`logo.test:${server.port}`);
  });

  it('rejects an HTML body sent with Content-Type image/png', async () => {
    const server = await serve(sendBody('image/png', '<!doctype html><html><body>not a logo</body></html>'));
    expect(await reasonOf(fetchLogo(server.url, LOCAL))).toBe('the logo is not a PNG, JPEG, GIF or WebP image');
  });

  it('rejects SVG', async () => {
    const server = await serve(
      sendBody(
        'image/svg+xml',
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
      ),
    );
    expect(await reasonOf(fetchLogo(server.url, LOCAL))).toBe('the logo is not a PNG, JPEG, GIF or WebP image');
  });

  it('rejects images larger than 4096x4096 pixels', async () => {
    const server = await serve(sendBody('image/png', png(4097, 1)));
    expect(await reasonOf(fetchLogo(server.url, LOCAL))).toBe(
      'the logo is 4097x1 pixels; the largest allowed is 4096x4096',
    );
    const ok = await serve(sendBody('image/png', png(4096, 1)));
    expect((await fetchLogo(ok.url, LOCAL)).width).toBe(4096);
  });

  it('rejects a 404', async () => {
    const server = await serve(sendBody('text/plain', 'nope', 404));
    expect(await reasonOf(fetchLogo(server.url, LOCAL))).toBe('the logo server answered 404');
  });

  it('rejects a too-large Content-Length at once and closes the socket', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(2 * 1_048_576) });
      res.write(png(10, 10)); // then stall: the client must not wait for the rest
    });
    // A timeout longer than the test's own: a client that waited for the rest would fail the test.
    expect(await reasonOf(fetchLogo(server.url, { ...LOCAL, timeoutMs: 60_000 }))).toBe(
      'the logo is larger than 1 MiB',
    );
    await server.allSocketsClosed();
  });

  it('aborts a chunked body without length once it passes maxBytes and closes the socket', async () => {
    let sent = 0;
    let clientGone = false;
    const server = await serve((req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' }); // no Content-Length: chunked
      const chunk = Buffer.concat([png(10, 10), Buffer.alloc(16 * 1024)]);
      res.on('close', () => (clientGone = true));
      const pump = () => {
        while (!clientGone && sent < 8 * 1_048_576) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!clientGone) res.end();
      };
      pump();
    });
    expect(await reasonOf(fetchLogo(server.url, { ...LOCAL, maxBytes: 256 * 1024 }))).toBe(
      'the logo is larger than 256 KiB',
    );
    await server.allSocketsClosed();
    expect(clientGone).toBe(true);
    expect(sent).toBeLessThan(8 * 1_048_576);
  });

  it('gives up on a server that never answers within timeoutMs and closes the socket', async () => {
    const server = await serve(() => {
      /* never answers */
    });
    const started = performance.now();
    expect(await reasonOf(fetchLogo(server.url, { ...LOCAL, timeoutMs: 300 }))).toBe(
      'the logo server did not answer within 0.3 s',
    );
    // Not before its time (a timer never fires early); how late is the machine's business.
    expect(performance.now() - started).toBeGreaterThanOrEqual(299);
    await server.allSocketsClosed();
  });

  it('times out a body that stalls half way', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': '5000' });
      res.write(png(10, 10));
    });
    expect(await reasonOf(fetchLogo(server.url, { ...LOCAL, timeoutMs: 300 }))).toBe(
      'the logo server did not answer within 0.3 s',
    );
    await server.allSocketsClosed();
  });

  it('times out a DNS lookup that never answers (default message: 5 s)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const pending = reasonOf(fetchLogo('http://slow-dns.test/', { ...LOCAL, resolve: () => new Promise(() => {}) }));
      await vi.advanceTimersByTimeAsync(5000);
      expect(await pending).toBe('the logo server did not answer within 5 s');
    } finally {
      vi.useRealTimers();
    }
  });

  it('follows up to maxRedirects redirects (relative and absolute) and refuses one more', async () => {
    const image = png(16, 16);
    const server = await serve((req, res) => {
      const n = Number(/^\/r\/(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
      if (n > 0) {
        const codes = [301, 302, 303, 307, 308];
        const location =
          n % 2 === 0 ? `/r/${n - 1}` : `http://127.0.0.1:${(req.socket.address() as AddressInfo).port}/r/${n - 1}`;
        res.writeHead(codes[n % codes.length]!, { location });
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(image);
      }
    });
    const logo = await fetchLogo(`${server.url}/r/3`, { ...LOCAL, maxRedirects: 3 });
    expect(logo.bytes.equals(image)).toBe(true);
    expect(server.requests.map((r) => r.url)).toEqual(['/r/3', '/r/2', '/r/1', '/r/0']);

    server.requests.length = 0;
    expect(await reasonOf(fetchLogo(`${server.url}/r/4`, { ...LOCAL, maxRedirects: 3 }))).toBe('too many redirects');
    expect(server.requests.map((r) => r.url)).toEqual(['/r/4', '/r/3', '/r/2', '/r/1']);
  });

  it('refuses redirects to non-http schemes', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(302, { location: 'file:///etc/passwd' });
      res.end();
    });
    expect(await reasonOf(fetchLogo(server.url, LOCAL))).toBe(
      'the logo server redirected to a file: URL; only http and https are allowed',
    );
  });
});

describe('fetchLogo SSRF refusals (allowPrivateNetwork: false)', () => {
  const connects: unknown[] = [];
  let blockConnects = true;

  beforeEach(() => {
    connects.length = 0;
    blockConnects = true;
    const realConnect = net.Socket.prototype.connect;
    // Every client socket (http, https, net.connect) goes through Socket.prototype.connect.
    vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
      connects.push(args[0]);
      if (blockConnects) throw new Error('test guard: a connection was attempted');
      return (realConnect as (...a: unknown[]) => net.Socket).apply(this, args);
    } as never);
  });

  afterEach(() => {
    vi.restoreAllMocks();
  });

  const noResolve = () =>
    vi.fn(async (): Promise<{ address: string; family: 4 | 6 }[]> => {
      throw new Error('resolve must not be called');
    });

  it.each([
    ['http://10.0.0.5/logo.png', 'the logo URL points to a private or reserved network address, which is refused'],
    [
      'http://169.254.169.254/latest/meta-data/',
      'the logo URL points to a private or reserved network address, which is refused',
    ],
    ['http://127.0.0.1:9/', 'the logo URL points to a private or reserved network address, which is refused'],
    ['http://2130706433/', 'the logo URL points to a private or reserved network address, which is refused'],
    ['http://0x7f.1/', 'the logo URL points to a private or reserved network address, which is refused'],
    ['http://[::1]/', 'the logo URL points to a private or reserved network address, which is refused'],
    ['http://[::ffff:10.0.0.1]/', 'the logo URL points to a private or reserved network address, which is refused'],
    ['https://[fd00::1]/', 'the logo URL points to a private or reserved network address, which is refused'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'the logo URL points to a private or reserved network address, which is refused'],
    ['http://[::ffff:0:7f00:1]/', 'the logo URL points to a private or reserved network address, which is refused'],
    [
      'https://[::ffff:0:169.254.169.254]/',
      'the logo URL points to a private or reserved network address, which is refused',
    ],
    ['http://[2002:a00:1::]/', 'the logo URL points to a private or reserved network address, which is refused'],
    ['http://[::8.8.8.8]/', 'the logo URL points to a private or reserved network address, which is refused'],
    ['http://[64:ff9b:1::808:808]/', 'the logo URL points to a private or reserved network address, which is refused'],
    [
      'http://[2001:0:808:808:0:fbaa:80ff:fffe]/',
      'the logo URL points to a private or reserved network address, which is refused',
    ],
    [
      'http://metadata.google.internal/computeMetadata/v1/',
      'the logo URL points to an internal host name (metadata.google.internal)',
    ],
    ['http://METADATA.google.internal./', 'the logo URL points to an internal host name (metadata.google.internal.)'],
    ['http://localhost:3000/', 'the logo URL points to an internal host name (localhost)'],
    ['file:///etc/passwd', 'the logo URL must start with http:// or https://'],
    ['ftp://example.com/logo.png', 'the logo URL must start with http:// or https://'],
    ['data:image/png;base64,AAAA', 'the logo URL must start with http:// or https://'],
    ['not a url', 'the logo URL is not a valid URL'],
  ])('refuses %s before any lookup or connection', async (url, reason) => {
    const resolve = noResolve();
    expect(await reasonOf(fetchLogo(url, { ...STRICT, resolve }))).toBe(reason);
    expect(resolve).not.toHaveBeenCalled();
    expect(connects).toEqual([]);
  });

  it('refuses a loopback server reached by IP literal: zero requests', async () => {
    blockConnects = false;
    const server = await serve(sendBody('image/png', png(8, 8)));
    expect(await reasonOf(fetchLogo(`${server.url}/logo.png`, STRICT))).toBe(
      'the logo URL points to a private or reserved network address, which is refused',
    );
    expect(connects).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('refuses a host name resolving to loopback: zero requests, no connection', async () => {
    blockConnects = false;
    const server = await serve(sendBody('image/png', png(8, 8)));
    const resolve = vi.fn(async () => [{ address: '127.0.0.1', family: 4 as const }]);
    expect(await reasonOf(fetchLogo(`http://innocent.test:${server.port}/`, { ...STRICT, resolve }))).toBe(
      'the logo URL points to a private or reserved network address, which is refused',
    );
    expect(resolve).toHaveBeenCalledWith('innocent.test');
    expect(connects).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    [[{ address: '10.0.0.5', family: 4 }], '10.0.0.5'],
    [[{ address: '169.254.169.254', family: 4 }], '169.254.169.254'],
    [[{ address: 'fe80::1', family: 6 }], 'fe80::1'],
    [[{ address: '::ffff:192.168.1.1', family: 6 }], '::ffff:192.168.1.1'],
    [[{ address: '100.64.0.1', family: 4 }], '100.64.0.1'],
    [[{ address: '::ffff:0:7f00:1', family: 6 }], '::ffff:0:7f00:1'],
    [[{ address: '::ffff:0:a9fe:a9fe', family: 6 }], '::ffff:0:a9fe:a9fe'],
    [[{ address: '2002:a9fe:a9fe::1', family: 6 }], '2002:a9fe:a9fe::1'],
  ] as const)('refuses a host name resolving to %j', async (addresses, shown) => {
    const resolve = vi.fn(async () => addresses.map((a) => ({ ...a })));
    const reason = await reasonOf(fetchLogo('http://cdn.test/logo.png', { ...STRICT, resolve }));
    expect(reason).toBe('the logo URL points to a private or reserved network address, which is refused');
    // Where the name points is never told: that would map the internal network.
    expect(reason).not.toContain(shown);
    expect(connects).toEqual([]);
  });

  it('checks EVERY resolved address, not just the first', async () => {
    blockConnects = false;
    const server = await serve(sendBody('image/png', png(8, 8)));
    // The policy allows 127.0.0.1 only (a stand-in for a public address, since tests stay on loopback).
    const resolve = vi.fn(async () => [
      { address: '127.0.0.1', family: 4 as const },
      { address: '10.0.0.5', family: 4 as const },
    ]);
    const options = { ...STRICT, resolve, isAllowed: (a: string) => a === '127.0.0.1' };
    expect(await reasonOf(fetchLogo(`http://mixed.test:${server.port}/`, options))).toBe(
      'the logo URL points to a private or reserved network address, which is refused',
    );
    expect(connects).toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it('reports a host name that does not resolve', async () => {
    const resolve = vi.fn(async (): Promise<{ address: string; family: 4 | 6 }[]> => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    });
    expect(await reasonOf(fetchLogo('http://nowhere.test/', { ...STRICT, resolve }))).toBe(
      'the logo host name could not be resolved (nowhere.test)',
    );
    expect(await reasonOf(fetchLogo('http://empty.test/', { ...STRICT, resolve: async () => [] }))).toBe(
      'the logo host name could not be resolved (empty.test)',
    );
    expect(connects).toEqual([]);
  });

  describe('redirect hops are re-checked', () => {
    // First hop: "public.test" → 127.0.0.1, which the test policy allows. The redirect target
    // lives on 127.0.0.2 (also loopback, so nothing leaves the machine), which the policy refuses.
    const policy = (a: string) => a === '127.0.0.1';

    async function setup(location: (second: TestServer) => string) {
      blockConnects = false;
      const second = await serve(sendBody('image/png', png(8, 8)), '127.0.0.2');
      const first = await serve((_req, res) => {
        res.writeHead(302, { location: location(second) });
        res.end();
      });
      return { first, second };
    }

    it('refuses a redirect to a forbidden IP literal; the second server gets zero requests', async () => {
      const { first, second } = await setup((s) => `http://127.0.0.2:${s.port}/logo.png`);
      const resolve = vi.fn(async (host: string) =>
        host === 'public.test' ? [{ address: '127.0.0.1', family: 4 as const }] : [],
      );
      const reason = await reasonOf(
        fetchLogo(`http://public.test:${first.port}/`, { ...STRICT, resolve, isAllowed: policy }),
      );
      expect(reason).toBe('the logo URL redirects to a private or reserved network address, which is refused');
      expect(first.requests).toHaveLength(1);
      expect(second.requests).toHaveLength(0);
      expect(connects).toHaveLength(1);
    });

    it('refuses a redirect to a host name resolving to a forbidden address; the second server gets none', async () => {
      const { first, second } = await setup((s) => `http://rebound.test:${s.port}/logo.png`);
      const resolve = vi.fn(async (host: string) => [
        { address: host === 'public.test' ? '127.0.0.1' : '127.0.0.2', family: 4 as const },
      ]);
      const reason = await reasonOf(
        fetchLogo(`http://public.test:${first.port}/`, { ...STRICT, resolve, isAllowed: policy }),
      );
      expect(reason).toBe('the logo URL redirects to a private or reserved network address, which is refused');
      expect(resolve.mock.calls.map((c) => c[0])).toEqual(['public.test', 'rebound.test']);
      expect(first.requests).toHaveLength(1);
      expect(second.requests).toHaveLength(0);
      expect(connects).toHaveLength(1);
    });

    it('refuses a redirect to the cloud metadata address', async () => {
      const { first } = await setup(() => 'http://169.254.169.254/latest/meta-data/iam/');
      const resolve = vi.fn(async () => [{ address: '127.0.0.1', family: 4 as const }]);
      expect(
        await reasonOf(fetchLogo(`http://public.test:${first.port}/`, { ...STRICT, resolve, isAllowed: policy })),
      ).toBe('the logo URL redirects to a private or reserved network address, which is refused');
      expect(connects).toHaveLength(1);
    });

    it('refuses a redirect to an internal host name without resolving it', async () => {
      const { first } = await setup(() => 'http://metadata.google.internal/computeMetadata/v1/');
      const resolve = vi.fn(async () => [{ address: '127.0.0.1', family: 4 as const }]);
      expect(
        await reasonOf(fetchLogo(`http://public.test:${first.port}/`, { ...STRICT, resolve, isAllowed: policy })),
      ).toBe('the logo URL redirects to an internal host name, which is refused');
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(connects).toHaveLength(1);
    });

    it('DNS rebinding cannot switch the address after the check: one lookup per hop, connection pinned', async () => {
      blockConnects = false;
      const server = await serve(sendBody('image/png', png(8, 8)));
      let calls = 0;
      // An attacker's DNS: an allowed address for the check, a forbidden one for any later lookup.
      const resolve = vi.fn(async () => [{ address: calls++ === 0 ? '127.0.0.1' : '127.0.0.2', family: 4 as const }]);
      const logo = await fetchLogo(`http://rebind.test:${server.port}/`, { ...STRICT, resolve, isAllowed: policy });
      expect(logo.width).toBe(8);
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(server.requests).toEqual([{ url: '/', host: `rebind.test:${server.port}` }]);
    });
  });
});
