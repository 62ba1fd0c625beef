// GET /v1/codes/:id/image: the code as SVG, PNG or PDF, with ETag and 304; and /v1/images, the
// workspace's uploaded images (logos and photos).
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import { singleFileBody } from '../../http/multipart.ts';
import { scope } from '../../http/scopes.ts';
import type { RouteEdge } from '../../http/route-edge.ts';
import { parseInput } from '../../shared/validation.ts';
import { imageQuerySchema, type ImagesService } from './service.ts';
import { presentImage } from './upload-presenter.ts';
import { MAX_UPLOAD_BYTES } from './upload-decode.ts';
import { listImagesSchema, type Uploads } from './uploads.ts';

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
  { auth, images, uploads }: RouteEdge & { images: ImagesService; uploads: Uploads },
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

  // POST /v1/images: upload one image (multipart/form-data, field "file"), stored re-encoded as PNG
  router.post('/images', auth, scope('codes:write'), singleFileBody('file', MAX_UPLOAD_BYTES), async (ctx) => {
    const image = await uploads.upload(principalOf(ctx), ctx.request.file!);
    ctx.status = 201;
    ctx.set('Location', `${router.opts.prefix}/images/${image.id}`);
    ctx.body = presentImage(image);
  });

  // GET /v1/images: one page of the workspace's images, newest first
  router.get('/images', auth, scope('codes:read'), async (ctx) => {
    const page = await uploads.list(principalOf(ctx), parseInput(listImagesSchema, ctx.query));
    ctx.body = { object: 'list', data: page.data.map(presentImage), next_cursor: page.nextCursor };
  });

  // GET /v1/images/:id: one image's metadata
  router.get('/images/:id', auth, scope('codes:read'), async (ctx) => {
    ctx.body = presentImage(await uploads.get(principalOf(ctx), ctx.params.id!));
  });

  // GET /v1/images/:id/content: the stored PNG
  router.get('/images/:id/content', auth, scope('codes:read'), async (ctx) => {
    const png = await uploads.content(principalOf(ctx), ctx.params.id!);
    // An image never changes after upload; it belongs to a workspace, so no shared cache keeps it.
    ctx.set('Cache-Control', 'private, max-age=31536000, immutable');
    ctx.type = 'image/png';
    ctx.body = png;
  });

  // DELETE /v1/images/:id: delete an image no code uses (409 while one does)
  router.delete('/images/:id', auth, scope('codes:write'), async (ctx) => {
    await uploads.remove(principalOf(ctx), ctx.params.id!);
    ctx.status = 204;
  });
}
