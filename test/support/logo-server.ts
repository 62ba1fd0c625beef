// A loopback HTTP server that serves a logo (and can count requests), for logo_url tests.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Resvg } from '@resvg/resvg-js';
import { getTestApp } from './app.ts';
import { webpOf } from './upload-fixtures.ts';

export interface LogoServer {
  url: (path?: string) => string;
  requests: () => number;
  close: () => Promise<void>;
}

/** A 64x64 PNG: a coloured disc, the kind of mark a brand puts in its codes. */
export function logoPng(disc = 'e11d48'): Buffer {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><circle cx="32" cy="32" r="30" ` +
    `fill="#${disc}"/><rect x="20" y="20" width="24" height="24" fill="#fde047"/></svg>`;
  return new Resvg(svg).render().asPng();
}

/** `/logo.webp`'s one colour: a WebP logo drawn blank would leave the code's centre white. */
export const WEBP_LOGO_RGB = [20, 160, 90] as const;

/** `/logo-<rrggbb>.png`: another logo (other bytes) per colour. */
const COLOURED_LOGO = /^\/logo-([0-9a-f]{6})\.png$/;

export async function startLogoServer(): Promise<LogoServer> {
  let count = 0;
  const png = logoPng();
  const webp = webpOf(64, 64, [...WEBP_LOGO_RGB, 255]);
  const server: Server = createServer((req, res) => {
    count += 1;
    if (req.url === '/logo.png') {
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length });
      res.end(png);
    } else if (req.url === '/logo.webp') {
      res.writeHead(200, { 'Content-Type': 'image/webp', 'Content-Length': webp.length });
      res.end(webp);
    } else if (COLOURED_LOGO.test(req.url ?? '')) {
      const coloured = logoPng(COLOURED_LOGO.exec(req.url!)![1]);
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': coloured.length });
      res.end(coloured);
    } else if (req.url === '/page.html') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html>not a logo</html>');
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path = '/logo.png') => `http://127.0.0.1:${port}${path}`,
    requests: () => count,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A test app whose logo fetcher may reach loopback (ALLOW_PRIVATE_NETWORK_TARGETS), a key of a
 * fresh account, and a logo server to point logo_url at.
 */
export async function getTestAppWithLogos() {
  const app = await getTestApp({ ALLOW_PRIVATE_NETWORK_TARGETS: 'true' });
  const logos = await startLogoServer();
  return {
    app,
    logos,
    key: await app.newAccountKey(),
    async close() {
      await app.close();
      await logos.close();
    },
  };
}
