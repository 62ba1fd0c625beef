// The images module's part in saving a code (codes/image-check.ts declares what codes need;
// services.ts hands this in).
import { parseInput } from '../../shared/validation.ts';
import type { CodeImageCheck } from '../codes/index.ts';
import { resolveDesign } from '../codes/index.ts';
import type { Logos } from './logos.ts';
import { imageQuerySchema, type ImagesService } from './service.ts';

export function createCodeImageCheck(images: ImagesService, logos: Logos): CodeImageCheck {
  return {
    logoIdFor: (accountId, design) =>
      design.logo_url ? logos.ensureFromUrl(accountId, design.logo_url) : Promise.resolve(null),

    // Logos are read through a small cache, so a retried create does not read its logo again.
    verify: async (accountId, code, design, logoId) =>
      images.verify(accountId, images.payloadOf(code), resolveDesign(design), await logos.forRender(logoId)),

    previewAt(size) {
      const params = parseInput(imageQuerySchema, { format: 'svg', size });
      return async (accountId, code) => (await images.renderCodeImage(accountId, code, params)).toString('utf8');
    },
  };
}
