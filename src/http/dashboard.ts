// The web dashboard at /dashboard: the files `npm run build` writes to dist/dashboard (Vite,
// base /dashboard/). Hashed assets are cached for good; index.html answers /dashboard and every
// client-side route under it, revalidated on each load so that a new build shows at once.
// Scripts and style sheets go out as the build precompressed them (brotli or gzip).
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { Router } from '@koa/router';
import { fromProjectRoot } from '../shared/build-layout.ts';
import { DomainError } from '../shared/errors.ts';
import type { AppContext, AppState } from './context.ts';
import { chooseEncoding, type Precompressed } from './precompressed.ts';
import { DASHBOARD_CSP, HTML_SECURITY_HEADERS } from './security-headers.ts';

export const DASHBOARD_DIR = fromProjectRoot('dist/dashboard/');

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Vite's hashed file names; anything else (a path separator, a leading dot) is not ours. */
const ASSET_NAME = /^[\w-][\w.-]*$/;

const PRECOMPRESSED = ['br', 'gzip'] as const;
const SUFFIX: Record<Precompressed, string> = { br: '.br', gzip: '.gz' };

/** Vite names assets by content hash, so a name never changes meaning. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const notBuilt = (dir: string) =>
  new DomainError(
    'unavailable',
    `The dashboard is not built: ${join(dir, 'index.html')} is missing. Run \`npm run build\`, then reload.`,
  );

async function fileSize(path: string): Promise<number | null> {
  const info = await stat(path).catch(() => null);
  return info?.isFile() ? info.size : null;
}

/** `dir` is dist/dashboard unless a test points elsewhere. */
export function createDashboardRouter(dir: string = DASHBOARD_DIR): Router<AppState> {
  const router = new Router<AppState>();
  const indexFile = join(dir, 'index.html');

  async function sendIndex(ctx: AppContext): Promise<void> {
    const html = await readFile(indexFile, 'utf8').catch(() => null);
    if (html === null) throw notBuilt(dir);
    ctx.set({ ...HTML_SECURITY_HEADERS, 'Content-Security-Policy': DASHBOARD_CSP, 'Cache-Control': 'no-cache' });
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  }

  // GET /dashboard/assets/:file: a built, hashed asset
  router.get('/dashboard/assets/:file', async (ctx) => {
    const file = ctx.params.file!;
    const path = join(dir, 'assets', file);
    const size = ASSET_NAME.test(file) ? await fileSize(path) : null;
    if (size === null) {
      if ((await fileSize(indexFile)) === null) throw notBuilt(dir);
      // Not index.html: a page asking for an asset of another build should fail visibly.
      throw new DomainError(
        'not_found',
        `The dashboard has no asset '${file}'; reload the page to get the current build.`,
      );
    }
    ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': IMMUTABLE });
    ctx.type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    // The build wrote .br and .gz beside each script and style sheet of 1 KiB or more.
    const variants = await Promise.all(
      PRECOMPRESSED.map(async (encoding) => ({ encoding, size: await fileSize(`${path}${SUFFIX[encoding]}`) })),
    );
    const encoding = chooseEncoding(
      ctx,
      variants.filter((v) => v.size !== null).map((v) => v.encoding),
    );
    // A Content-Encoding of our own also tells the compression middleware to keep off.
    if (encoding) ctx.set('Content-Encoding', encoding);
    ctx.length = encoding ? variants.find((v) => v.encoding === encoding)!.size! : size;
    ctx.body = createReadStream(encoding ? `${path}${SUFFIX[encoding]}` : path);
  });

  // GET /dashboard and /dashboard/<client-side route>: the page
  router.get('/dashboard{/*route}', sendIndex);

  return router;
}
