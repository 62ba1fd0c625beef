// GET /v1/codes/:id/image: the code as SVG, PNG or PDF, with ETag and 304.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { scope } from '../../http/scopes.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { imageQuerySchema, type ImagesService } from './service.ts';

/**
 * If-None-Match against our tag (RFC 9110 weak comparison: a list, W/ prefixes, or *).
 * Koa's ctx.fresh is not used because it ignores validators on requests that carry
 * Cache-Control: no-cache, which fetch() adds whenever a caller sets If-None-Match itself.
 */
export function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export function registerImageRoutes(
  router: Router<AppState>,
  { auth, images }: RouteEdge & { images: ImagesService },
): void {
  // GET /v1/codes/:id/image?format=svg|png|pdf&size=512&margin=4: render the code
  router.get('/codes/:id/image', auth, scope('codes:read'), async (ctx) => {
    const image = await images.image(principalOf(ctx), ctx.params.id!, parseInput(imageQuerySchema, ctx.query));
    ctx.set('ETag', image.etag);
    // Larger than `size` when that would not scan: the image is drawn at the smallest size that does.
    ctx.set('Image-Width', String(image.width));
    // Private: the image belongs to an account; revalidate so a design change shows at once.
    ctx.set('Cache-Control', 'private, no-cache');
    if (matchesEtag(ctx.get('If-None-Match'), image.etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = image.contentType;
    ctx.body = image.body;
  });
}
