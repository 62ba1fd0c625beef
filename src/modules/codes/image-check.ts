// What saving a code needs of the images module, which sits above codes: the logo a design
// names, fetched and stored; the check that the drawn code decodes back to its payload; and the
// preview's SVG. services.ts hands the images module's implementation in (images/code-image-check.ts).
import type { Code } from './model.ts';
import type { Page } from './page.ts';
import type { PayloadSource } from './payload.ts';
import type { DesignInput } from './schemas.ts';

export interface CodeImageCheck {
  /**
   * Fetches and stores the logo the design names (network I/O: call it outside transactions); its id, or null without
   * one. A failed fetch is a 422.
   */
  logoIdFor(accountId: string, design: DesignInput): Promise<string | null>;
  /** Refuses (422 on page.photo_image_id) a business card whose photo is not an image of the account. */
  checkPhoto(accountId: string, page: Page | null | undefined): Promise<void>;
  /** Refuses (422) a design that, drawn with the stored logo, does not decode back to the code's payload. */
  verify(accountId: string, code: PayloadSource, design: DesignInput, logoId: string | null): Promise<void>;
  /**
   * Checks a preview's `size` at once (a 422 outside the image query's range, before any logo is
   * fetched or image drawn) and answers the function that draws a code's SVG at that size.
   */
  previewAt(
    size: number | undefined,
  ): (accountId: string, code: PayloadSource & Pick<Code, 'design' | 'logoId'>) => Promise<string>;
}
