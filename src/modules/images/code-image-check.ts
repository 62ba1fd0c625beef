// The images module's part in saving a code (codes/image-check.ts declares what codes need;
// services.ts hands this in).
import { parseInput } from '../../shared/validation.ts';
import type { CodeImageCheck } from '../codes/index.ts';
import { resolveDesign } from '../codes/index.ts';
import { validationFailed } from '../../shared/errors.ts';
import type { Logos } from './logos.ts';
import { imageQuerySchema, type ImagesService } from './service.ts';
import type { Uploads } from './uploads.ts';

export function createCodeImageCheck(images: ImagesService, logos: Logos, uploads: Uploads): CodeImageCheck {
  return {
    async logoIdFor(accountId, design) {
      if (design.logo_image_id) return uploads.logoIdOf(accountId, design.logo_image_id);
      return design.logo_url ? logos.ensureFromUrl(accountId, design.logo_url) : null;
    },

    async checkPhoto(accountId, page) {
      const id = page?.kind === 'business_card' ? page.photo_image_id : undefined;
      if (id && !(await uploads.exists(accountId, id)))
        throw validationFailed([{ path: 'page.photo_image_id', message: 'is not an image of this workspace' }]);
    },

    // Logos are read through a small cache, so a retried create does not read its logo again.
    verify: async (accountId, code, design, logoId) =>
      images.verify(accountId, images.payloadOf(code), resolveDesign(design), await logos.forRender(logoId)),

    previewAt(size) {
      const params = parseInput(imageQuerySchema, { format: 'svg', size });
      return async (accountId, code) => (await images.renderCodeImage(accountId, code, params)).toString('utf8');
    },
  };
}
