// Images of codes: the payload a code encodes, the scannability check run whenever a design
// or content changes, and rendering (SVG, PNG, PDF) with ETags and an in-memory cache.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { DomainError, notFound } from '../../shared/errors.ts';
import type { Principal } from '../../shared/principal.ts';
import { resolveDesign, type Code, type ResolvedDesign } from '../codes/index.ts';
import { payloadOf as payloadOfCode, type PayloadSource } from '../codes/index.ts';
import type { CodesStore } from '../codes/index.ts';
import { contrastRatio } from '../codes/index.ts';
import type { RenderDesign, RenderLogo } from './design.ts';
import type { Logos } from './logos.ts';
import type { PngEffort } from './png.ts';
import type { RenderPool } from './render-pool.ts';
import { MIN_PIXELS_PER_MODULE } from './scannable-size.ts';

export { MIN_PIXELS_PER_MODULE };

export const IMAGE_FORMATS = ['svg', 'png', 'pdf'] as const;
const CONTENT_TYPES = { svg: 'image/svg+xml', png: 'image/png', pdf: 'application/pdf' } as const;

/** What `size` means, for the OpenAPI document of every endpoint that takes the image query. */
const SIZE_DESCRIPTION =
  `Width in pixels (PNG), or in CSS pixels or points (SVG, PDF); the image is square, or taller when the design has ` +
  `a banner frame. ` +
  (`A code needs ${MIN_PIXELS_PER_MODULE} pixels per module to scan, counted across the code and its quiet zone ` +
    `(modules + 2 × margin): a smaller size is rounded up to that, `) +
  (`and the width drawn is reported (the Image-Width header of GET /codes/{id}/image, the image's own width in a ` +
    `batch's ZIP). `) +
  `Each module is drawn a whole number of pixels wide; pixels left over widen the quiet zone.`;

export const imageQuerySchema = z.strictObject({
  format: z.enum(IMAGE_FORMATS, { error: `must be one of ${IMAGE_FORMATS.join(', ')}` }).default('svg'),
  size: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(64, 'must be at least 64')
    .max(4096, 'must be at most 4096')
    .default(512)
    .meta({ description: SIZE_DESCRIPTION }),
  margin: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(2, 'must be at least 2 modules')
    .max(16, 'must be at most 16 modules')
    .optional(),
});

/** A validated image query: what every rendering of a code's image takes besides the code. */
export type ImageParams = z.infer<typeof imageQuerySchema>;

/**
 * Most checks one bulk call may run: each distinct design is checked once per QR version its
 * codes get, with each of the 8 masks, so one design over codes of 10 versions is 80 checks.
 */
export const MAX_CHECKS_PER_CALL = 400;
const MASKS = [0, 1, 2, 3, 4, 5, 6, 7] as const;
/** Payloads per version task: a few hundred milliseconds of a worker thread. */
const VERSIONS_CHUNK = 2000;

/** One code of a bulk call, for the scannability check: `designKey` tells designs (logo included) apart. */
export interface CheckItem {
  payload: string;
  designKey: string;
  design: ResolvedDesign;
  logo: RenderLogo | null;
}

export interface RenderedImage {
  etag: string;
  contentType: string;
  body: Buffer;
  /** The width drawn: the asked size, or the smallest that scans when that was less (scannable-size.ts). */
  width: number;
}

/** Everything an image depends on, so a cached image is answered without the database. */
interface RenderInputs {
  accountId: string;
  payload: string;
  design: ResolvedDesign;
  logoId: string | null;
}

/** The renderer's view of a code's resolved design. */
export function renderDesignOf(d: ResolvedDesign): RenderDesign {
  return {
    fgColor: d.fg_color,
    bgColor: d.bg_color,
    style: d.style,
    eyeStyle: d.eye_style,
    eyeColor: d.eye_color,
    gradient: d.gradient,
    frame: d.frame,
    frameText: d.frame_text,
    margin: d.margin,
    errorCorrection: d.error_correction,
  };
}

export interface ImagesServiceDeps {
  codes: CodesStore;
  logos: Logos;
  /** Where drawing and decoding happen: worker threads, off the thread that answers requests. */
  pool: RenderPool;
  publicBaseUrl: string;
  cacheBytes: number;
  /**
   * How long another process's change may take to show when its invalidation does not arrive
   * (this process's show at once; with REDIS_URL, others' within milliseconds).
   */
  inputsTtlMs: number;
}

export function createImagesService(deps: ImagesServiceDeps) {
  const rendered = new LRUCache<string, RenderedImage>({
    maxSize: deps.cacheBytes,
    sizeCalculation: (image) => image.body.length || 1,
  });
  // Rendered images need no invalidation: they are keyed by their ETag, a hash of their inputs.
  const inputsByCode = new LRUCache<string, RenderInputs>({ max: 10_000, ttl: deps.inputsTtlMs });
  // Bumped by every drop: a lookup that read the database before a drop must not cache what it read.
  let generation = 0;

  async function inputsOf(principal: Principal, codeId: string): Promise<RenderInputs> {
    const cached = inputsByCode.get(codeId);
    if (cached && cached.accountId === principal.accountId) return cached;
    const readAt = generation;
    const code = await deps.codes.findById(principal.accountId, codeId);
    if (!code) throw notFound('code', codeId);
    const inputs = {
      accountId: code.accountId,
      payload: payloadOf(code),
      design: resolveDesign(code.design),
      logoId: code.logoId,
    };
    if (readAt === generation) inputsByCode.set(codeId, inputs);
    return inputs;
  }

  const payloadOf = (code: PayloadSource) => payloadOfCode(code, deps.publicBaseUrl);

  /** The code's design with the query's quiet zone, when it asks for one. */
  const designFor = (design: ResolvedDesign, params: ImageParams): ResolvedDesign =>
    params.margin === undefined ? design : { ...design, margin: params.margin };

  /** Renders the bytes of one image, uncached, on the render pool under the account's queue. */
  async function renderBytes(
    accountId: string,
    payload: string,
    design: ResolvedDesign,
    logoId: string | null,
    params: ImageParams,
    effort: PngEffort,
  ): Promise<{ body: Buffer; width: number }> {
    const logo = await deps.logos.forRender(logoId);
    return deps.pool.image(accountId, {
      payload,
      design: renderDesignOf(design),
      logo,
      format: params.format,
      size: params.size,
      effort,
    });
  }

  /** The most likely reason a design does not decode, for the 422's message. */
  function likelyCause(design: ResolvedDesign, logo: RenderLogo | null): string {
    const fg = design.gradient ? [design.gradient.from, design.gradient.to] : [design.fg_color];
    const weakest = Math.min(...fg.map((c) => contrastRatio(c, design.bg_color)));
    if (weakest < 4.5)
      return (
        `the contrast between the modules and bg_color is low (${weakest.toFixed(1)}:1); use darker modules or ` +
        `a lighter background`
      );
    if (logo) return 'the logo hides too much of the code; use error_correction H, a simpler style or no logo';
    if (design.margin < 4) return 'the quiet zone is narrow; use a margin of 4 modules';
    return `the ${design.style} style with these colors does not decode; try the square style`;
  }

  return {
    payloadOf,

    /** Drops what is cached about a code that changed or was deleted. */
    forget(codeId: string): void {
      generation++;
      inputsByCode.delete(codeId);
    },

    /** Invalidations may have been missed (Redis was away): drop every code's inputs. */
    forgetAll(): void {
      generation++;
      inputsByCode.clear();
    },

    /**
     * Renders the design and decodes it (for `accountId`, on the render pool); refuses (422) a design that does not
     * read back.
     */
    async verify(accountId: string, payload: string, design: ResolvedDesign, logo: RenderLogo | null): Promise<void> {
      const result = await deps.pool.check(accountId, { payload, design: renderDesignOf(design), logo });
      if (result === 'scans') return;
      if (result === 'too_big') {
        const message =
          `is too long for a QR code at error_correction ${design.error_correction}; shorten it or ` +
          `use a lower level`;
        throw new DomainError('validation_failed', `content ${message}.`, [{ path: 'content', message }]);
      }
      const cause = likelyCause(design, logo);
      throw new DomainError('validation_failed', `This design does not scan: ${cause}.`, [
        { path: 'design', message: `does not scan: ${cause}` },
      ]);
    },

    /**
     * The scannability check of many codes: once per distinct design and payload class (the QR
     * version, and each mask a code of that version may get), not once per code, so 10,000
     * distinct texts cost a few dozen checks. Throws the first failure's 422 with its item's
     * index in `fieldErrors` paths (`<index>.design`), and a 422 when the call needs more than
     * MAX_CHECKS_PER_CALL checks.
     */
    async verifyAll(accountId: string, items: CheckItem[]): Promise<void> {
      const classes = new Map<string, number>();
      const byDesign = new Map<string, { item: CheckItem; index: number }[]>();
      items.forEach((item, index) => {
        const group = byDesign.get(item.designKey);
        if (group) group.push({ item, index });
        else byDesign.set(item.designKey, [{ item, index }]);
      });
      for (const group of byDesign.values()) {
        const errorCorrection = group[0]!.item.design.error_correction;
        const chunks = [];
        for (let i = 0; i < group.length; i += VERSIONS_CHUNK) {
          chunks.push(
            deps.pool.versions(accountId, {
              payloads: group.slice(i, i + VERSIONS_CHUNK).map(({ item }) => item.payload),
              errorCorrection,
            }),
          );
        }
        (await Promise.all(chunks)).flat().forEach((version, i) => {
          const { item, index } = group[i]!;
          if (version === 0) {
            const message =
              `is too long for a QR code at error_correction ${errorCorrection}; shorten it or use a ` + `lower level`;
            throw new DomainError('validation_failed', `content ${message}.`, [{ path: `${index}.content`, message }]);
          }
          const key = `${version} ${item.designKey}`;
          if (!classes.has(key)) classes.set(key, index);
        });
      }
      const checks = classes.size * MASKS.length;
      if (checks > MAX_CHECKS_PER_CALL) {
        throw new DomainError(
          'validation_failed',
          `These codes need ${checks} scannability checks (${classes.size} pairs of a design and a QR version, 8 ` +
            `masks each); one call may run ${MAX_CHECKS_PER_CALL}. Split the call, or use fewer distinct designs.`,
        );
      }
      const failed = await Promise.all(
        [...classes.values()].map(async (index) => {
          const { payload, design, logo } = items[index]!;
          const results = await Promise.all(
            MASKS.map((maskPattern) =>
              deps.pool.check(accountId, { payload, design: renderDesignOf(design), logo, maskPattern }),
            ),
          );
          return results.every((result) => result === 'scans') ? null : index;
        }),
      );
      const first = Math.min(...failed.filter((index) => index !== null));
      if (!Number.isFinite(first)) return;
      const { design, logo } = items[first]!;
      const cause = likelyCause(design, logo);
      throw new DomainError('validation_failed', `This design does not scan: ${cause}.`, [
        { path: `${first}.design`, message: `does not scan: ${cause}` },
      ]);
    },

    /** The code's image in the asked format; `etag` lets callers answer If-None-Match with 304. */
    async image(principal: Principal, codeId: string, params: ImageParams): Promise<RenderedImage> {
      const inputs = await inputsOf(principal, codeId);
      const design = designFor(inputs.design, params);
      const { payload, logoId } = inputs;
      // Everything that shapes the bytes, and nothing else, goes into the tag.
      const etag = `"${createHash('sha256')
        .update(JSON.stringify([payload, design, logoId, params.format, params.size]))
        .digest('base64url')
        .slice(0, 32)}"`;
      const cached = rendered.get(etag);
      if (cached) return cached;
      // Cached, then sent many times: worth a more compact PNG.
      const { body, width } = await renderBytes(principal.accountId, payload, design, logoId, params, 'compact');
      const image = { etag, contentType: CONTENT_TYPES[params.format], body, width };
      rendered.set(etag, image);
      return image;
    },

    /**
     * One code's image rendered now, bypassing both caches: for callers that render many codes
     * once each (a batch's ZIP), which would only evict the images worth keeping.
     */
    async renderCodeImage(
      accountId: string,
      code: PayloadSource & Pick<Code, 'design' | 'logoId'>,
      params: ImageParams,
    ): Promise<Buffer> {
      // Sent once, right after it is made: a quicker PNG beats a few percent fewer bytes.
      return (
        await renderBytes(
          accountId,
          payloadOf(code),
          designFor(resolveDesign(code.design), params),
          code.logoId,
          params,
          'fast',
        )
      ).body;
    },
  };
}

export type ImagesService = ReturnType<typeof createImagesService>;
