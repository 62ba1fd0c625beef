// GET /v1/codes/:id/image: the code as SVG, PNG or PDF, with ETag and 304.
import type { Router } from '@koa/router';
import { principalOf, type AppState } from '../../http/context.ts';
import type { RouteDeps } from '../codes/rest.ts';

export function registerImageRoutes(router: Router<AppState>, { services, auth }: RouteDeps): void {
  // GET /v1/codes/:id/image?format=svg|png|pdf&size=512&margin=4: render the code
  router.get('/codes/:id/image', auth, async (ctx) => {
    const image = await services.images.image(principalOf(ctx), ctx.params.id!, ctx.query);
    ctx.set('ETag', image.etag);
    // Private: the image belongs to an account; revalidate so a design change shows at once.
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.status = 200;
    // Koa's fresh check compares If-None-Match (lists and weak tags included) with the ETag.
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = image.contentType;
    ctx.body = image.body;
  });
}
