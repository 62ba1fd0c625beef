// Logos: fetched once from a design's logo_url (SSRF-checked), stored by content hash, and
// read back from the database (through a small cache) whenever a code is rendered. Each account
// holds the logos it stored, within a byte budget; holdings no code of the account uses are
// collected after a grace period, and logos nobody holds with them.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { DomainError } from '../../shared/errors.ts';
import type { RenderLogo } from './design.ts';
import { fetchLogo, LogoFetchError, type LogoFetchOptions } from './logo-fetch.ts';
import type { Holding, LogoStore } from './logo-store.ts';
import { webpToPng } from './webp-decode.ts';

/** Rows one collection pass looks at; the next pass takes the rest. */
const COLLECT_BATCH = 500;

export interface LogosOptions {
  fetch: LogoFetchOptions;
  /** LOGO_BYTES_PER_ACCOUNT: what an account's logos may take, shared ones counted in full. */
  bytesPerAccount: number;
  /** LOGO_UNREFERENCED_GRACE_MS: how long a logo no code uses is kept (a preview, a create in flight). */
  graceMs: number;
  /** Which of these logos codes use (the codes store's answer). */
  logosInUse: (logoIds: string[]) => Promise<Holding[]>;
  logger: Logger;
}

type LogoField = 'design.logo_url' | 'design.logo_image_id';

const fieldError = (message: string, path: LogoField = 'design.logo_url') =>
  new DomainError('validation_failed', `${path}: ${message}`, [{ path, message }]);

/** A logo's bytes, checked, as it is stored. */
export interface LogoBytes {
  contentType: string;
  bytes: Buffer;
  width: number;
  height: number;
}

/**
 * The logo as the renderer can draw it: resvg leaves a WebP blank, so a WebP is kept as the PNG
 * of its pixels (a 422 when libwebp cannot decode it); other types are kept as fetched.
 */
async function drawable(logo: LogoBytes): Promise<LogoBytes> {
  if (logo.contentType !== 'image/webp') return logo;
  const decoded = await webpToPng(logo.bytes);
  if (!decoded) throw fieldError('the WebP logo could not be decoded');
  return { contentType: 'image/png', bytes: decoded.png, width: decoded.width, height: decoded.height };
}

export function createLogos(store: LogoStore, options: LogosOptions) {
  const cache = new LRUCache<string, RenderLogo>({ max: 200 });
  const { bytesPerAccount: budget } = options;

  /**
   * Ends holdings no code of their account uses and unrenewed for the grace period (of one
   * account, or of every account), then deletes the logos nobody holds any more.
   */
  async function collect(accountId?: string, now = Date.now()): Promise<void> {
    const before = now - options.graceMs;
    const stale = await store.staleHoldings(before, COLLECT_BATCH, accountId);
    const used = new Set(
      (await options.logosInUse([...new Set(stale.map((h) => h.logoId))])).map((h) => `${h.accountId} ${h.logoId}`),
    );
    await store.release(
      stale.filter((h) => !used.has(`${h.accountId} ${h.logoId}`)),
      before,
    );
    const unheld = await store.unheldLogos(before, COLLECT_BATCH);
    const stillUsed = new Set((await options.logosInUse(unheld)).map((h) => h.logoId));
    const deleted = await store.deleteUnheld(
      unheld.filter((id) => !stillUsed.has(id)),
      before,
    );
    if (deleted > 0) options.logger.info({ deleted }, 'Unused logos deleted');
  }

  /** Refuses a logo that would take the account past its budget, after collecting what it can. */
  async function assertRoom(accountId: string, bytes: number, path: LogoField): Promise<void> {
    let held = await store.bytesHeld(accountId);
    if (held + bytes <= budget) return;
    await collect(accountId);
    held = await store.bytesHeld(accountId);
    if (held + bytes <= budget) return;
    throw fieldError(
      `this account's logos take ${held} of the ${budget} bytes it may store (LOGO_BYTES_PER_ACCOUNT); this one ` +
        `needs ${bytes} more. ` +
        (`Logos no code uses any more are freed ${Math.round(options.graceMs / 1000)} s after their last use ` +
          `(LOGO_UNREFERENCED_GRACE_MS).`),
      path,
    );
  }

  /** Stores the logo for the account (content-addressed), within its budget; its id. */
  async function hold(accountId: string, logo: LogoBytes, path: LogoField): Promise<string> {
    const id = createHash('sha256').update(logo.bytes).digest('hex');
    const now = Date.now();
    if (!(await store.holds(accountId, id))) await assertRoom(accountId, logo.bytes.length, path);
    await store.save({ id, ...logo }, now);
    await store.hold(accountId, id, logo.bytes.length, now);
    return id;
  }

  return {
    /**
     * Fetches the logo behind a URL and stores it for the account, within its budget; a failed
     * fetch or a full budget is a 422 that says why. (A full budget cannot refuse before the
     * fetch: the logo may be one the account holds already, which costs nothing more.)
     */
    async ensureFromUrl(accountId: string, url: string): Promise<string> {
      let logo;
      try {
        logo = await fetchLogo(url, options.fetch);
      } catch (err) {
        if (!(err instanceof LogoFetchError)) throw err;
        throw fieldError(err.reason);
      }
      return hold(accountId, await drawable(logo), 'design.logo_url');
    },

    /**
     * Stores an uploaded image (already a checked PNG) as the account's logo, as a fetched one
     * is: the renderer then draws it the same way, and a deleted upload leaves codes as drawn.
     */
    ensureFromUpload: (accountId: string, logo: LogoBytes): Promise<string> =>
      hold(accountId, logo, 'design.logo_image_id'),

    /** The stored logo ready to embed, or null when the id is null. */
    async forRender(id: string | null): Promise<RenderLogo | null> {
      if (!id) return null;
      const cached = cache.get(id);
      if (cached) return cached;
      const row = await store.find(id);
      if (!row) return null;
      // A WebP stored before fetched ones were kept as PNG: drawn from its pixels, once per cache entry.
      const png = row.contentType === 'image/webp' ? await webpToPng(Buffer.from(row.dataBase64, 'base64')) : null;
      const logo = png
        ? { dataUri: `data:image/png;base64,${png.png.toString('base64')}`, width: png.width, height: png.height }
        : { dataUri: `data:${row.contentType};base64,${row.dataBase64}`, width: row.width, height: row.height };
      cache.set(id, logo);
      return logo;
    },

    collect,
  };
}

export type Logos = ReturnType<typeof createLogos>;
