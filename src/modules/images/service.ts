// Images of codes: the payload a code encodes, the scannability check run whenever a design
// or content changes, and rendering (SVG, PNG, PDF) with ETags and an in-memory cache.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import QRCode from 'qrcode';
import { z } from 'zod';
import { DomainError, notFound } from '../../shared/errors.ts';
import type { Principal } from '../../shared/principal.ts';
import { parseInput } from '../../shared/validation.ts';
import { renderDesignOf, resolveDesign, type Code, type ResolvedDesign } from '../codes/model.ts';
import { payloadOf as payloadOfCode } from '../codes/payload.ts';
import type { CodesStore } from '../codes/store.ts';
import { contrastRatio } from './contrast.ts';
import { decodeQr } from './decode.ts';
import type { RenderLogo } from './design.ts';
import type { Logos } from './logos.ts';
import { svgToPdf } from './pdf.ts';
import type { PngEffort } from './png.ts';
import { svgToPng, svgToRgba } from './raster.ts';
import { hasOnlyStraightEdges, renderSvg } from './render.ts';

export const IMAGE_FORMATS = ['svg', 'png', 'pdf'] as const;
const CONTENT_TYPES = { svg: 'image/svg+xml', png: 'image/png', pdf: 'application/pdf' } as const;

export const imageQuerySchema = z.strictObject({
  format: z.enum(IMAGE_FORMATS, { error: `must be one of ${IMAGE_FORMATS.join(', ')}` }).default('svg'),
  size: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(64, 'must be at least 64').max(4096, 'must be at most 4096').default(512),
  margin: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(2, 'must be at least 2 modules').max(16, 'must be at most 16 modules').optional(),
});

/** A validated image query: what every rendering of a code's image takes besides the code. */
export type ImageParams = z.infer<typeof imageQuerySchema>;

/**
 * The scannability check renders at about 8 px per module (at least 400 px): enough for the
 * decoder to be fair to dense codes, small enough to stay quick.
 */
function verifyWidth(payload: string, design: ResolvedDesign): number {
  const modules = QRCode.create(payload, { errorCorrectionLevel: design.error_correction }).modules.size;
  return Math.max(400, (modules + 2 * design.margin) * 8);
}

/** qrcode's error when the payload does not fit in a version-40 code at the chosen level. */
const isTooBig = (err: unknown) => err instanceof Error && /too big/i.test(err.message);

export interface RenderedImage {
  etag: string;
  contentType: string;
  body: Buffer;
}

/** Width and height attributes of the rendered SVG's root element. */
function svgSize(svg: string): { width: number; height: number } {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const attr = (name: string) => Number(new RegExp(`\\b${name}="([\\d.]+)"`).exec(root)?.[1]);
  return { width: attr('width'), height: attr('height') };
}

/** Everything an image depends on, so a cached image is answered without the database. */
interface RenderInputs {
  accountId: string;
  payload: string;
  design: ResolvedDesign;
  logoId: string | null;
}

export interface ImagesServiceDeps {
  codes: CodesStore;
  logos: Logos;
  publicBaseUrl: string;
  cacheBytes: number;
  /** How long another process's change may take to show (this process's show at once). */
  inputsTtlMs: number;
}

export function createImagesService(deps: ImagesServiceDeps) {
  const rendered = new LRUCache<string, RenderedImage>({ maxSize: deps.cacheBytes, sizeCalculation: (image) => image.body.length || 1 });
  const inputsByCode = new LRUCache<string, RenderInputs>({ max: 10_000, ttl: deps.inputsTtlMs });

  async function inputsOf(principal: Principal, codeId: string): Promise<RenderInputs> {
    const cached = inputsByCode.get(codeId);
    if (cached && cached.accountId === principal.accountId) return cached;
    const code = await deps.codes.findById(principal.accountId, codeId);
    if (!code) throw notFound('code', codeId);
    const inputs = { accountId: code.accountId, payload: payloadOf(code), design: resolveDesign(code.design), logoId: code.logoId };
    inputsByCode.set(codeId, inputs);
    return inputs;
  }

  const payloadOf = (code: Pick<Code, 'type' | 'content' | 'slug'>) => payloadOfCode(code, deps.publicBaseUrl);

  /** The code's design with the query's quiet zone, when it asks for one. */
  const designFor = (design: ResolvedDesign, params: ImageParams): ResolvedDesign =>
    params.margin === undefined ? design : { ...design, margin: params.margin };

  /** Renders the bytes of one image, uncached: SVG first, PNG and PDF are made from it. */
  async function renderBytes(payload: string, design: ResolvedDesign, logoId: string | null, params: ImageParams, effort: PngEffort): Promise<Buffer> {
    const renderDesign = renderDesignOf(design);
    const svg = renderSvg(payload, renderDesign, await deps.logos.forRender(logoId), params.size);
    if (params.format === 'svg') return Buffer.from(svg);
    if (params.format === 'png') return svgToPng(svg, params.size, { effort, crispEdges: hasOnlyStraightEdges(renderDesign) });
    const { width, height } = svgSize(svg);
    return svgToPdf(svg, width, height);
  }

  /** The most likely reason a design does not decode, for the 422's message. */
  function likelyCause(design: ResolvedDesign, logo: RenderLogo | null): string {
    const fg = design.gradient ? [design.gradient.from, design.gradient.to] : [design.fg_color];
    const weakest = Math.min(...fg.map((c) => contrastRatio(c, design.bg_color)));
    if (weakest < 4.5) return `the contrast between the modules and bg_color is low (${weakest.toFixed(1)}:1); use darker modules or a lighter background`;
    if (logo) return 'the logo hides too much of the code; use error_correction H, a simpler style or no logo';
    if (design.margin < 4) return 'the quiet zone is narrow; use a margin of 4 modules';
    return `the ${design.style} style with these colors does not decode; try the square style`;
  }

  return {
    payloadOf,

    /** Drops what is cached about a code that changed or was deleted. */
    forget(codeId: string): void {
      inputsByCode.delete(codeId);
    },

    /** Renders the design and decodes it; refuses (422) a design that does not read back. */
    verify(payload: string, design: ResolvedDesign, logo: RenderLogo | null): void {
      let width: number;
      try {
        width = verifyWidth(payload, design);
      } catch (err) {
        if (!isTooBig(err)) throw err;
        const message = `is too long for a QR code at error_correction ${design.error_correction}; shorten it or use a lower level`;
        throw new DomainError('validation_failed', `content ${message}.`, [{ path: 'content', message }]);
      }
      const renderDesign = renderDesignOf(design);
      const svg = renderSvg(payload, renderDesign, logo, width);
      // Rasterised as the PNG will be, so what is checked is what is served.
      if (decodeQr(svgToRgba(svg, width, { crispEdges: hasOnlyStraightEdges(renderDesign) })) === payload) return;
      const cause = likelyCause(design, logo);
      throw new DomainError('validation_failed', `This design does not scan: ${cause}.`, [{ path: 'design', message: `does not scan: ${cause}` }]);
    },

    /** The code's image in the asked format; `etag` lets callers answer If-None-Match with 304. */
    async image(principal: Principal, codeId: string, query: unknown): Promise<RenderedImage> {
      const params = parseInput(imageQuerySchema, query);
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
      const body = await renderBytes(payload, design, logoId, params, 'compact');
      const image = { etag, contentType: CONTENT_TYPES[params.format], body };
      rendered.set(etag, image);
      return image;
    },

    /**
     * One code's image rendered now, bypassing both caches: for callers that render many codes
     * once each (a batch's ZIP), which would only evict the images worth keeping.
     */
    renderCodeImage(code: Pick<Code, 'type' | 'content' | 'slug' | 'design' | 'logoId'>, params: ImageParams): Promise<Buffer> {
      // Sent once, right after it is made: a quicker PNG beats a few percent fewer bytes.
      return renderBytes(payloadOf(code), designFor(resolveDesign(code.design), params), code.logoId, params, 'fast');
    },
  };
}

export type ImagesService = ReturnType<typeof createImagesService>;
