// A url code's hosted page in the editor: its JSON as typed (like a static code's content), ''
// for none, with a template per kind to start from (docs/pages.md lists every field).
import type { FieldProblem } from '../graphql.ts';
import { currentMessages } from '../i18n/index.ts';

export const PAGE_KINDS = ['business_card', 'app_download', 'links'] as const;

const TEMPLATES: Record<string, unknown> = {
  business_card: {
    kind: 'business_card',
    name: 'Ada Lovelace',
    title: 'Analyst',
    organization: 'Analytical Engines Ltd',
    phones: [{ label: 'Work', number: '+44 20 7946 0000' }],
    emails: [{ label: 'Work', address: 'ada@example.com' }],
    links: [{ label: 'Website', url: 'https://example.com' }],
  },
  app_download: {
    kind: 'app_download',
    app_name: 'My app',
    description: 'Get it on your phone.',
    app_store_url: 'https://apps.apple.com/app/id1234567890',
    play_store_url: 'https://play.google.com/store/apps/details?id=com.example.app',
  },
  links: {
    kind: 'links',
    title: 'My links',
    links: [
      { label: 'Website', url: 'https://example.com' },
      { label: 'Shop', url: 'https://example.com/shop' },
    ],
  },
};

export const pageTemplate = (kind: string) => JSON.stringify(TEMPLATES[kind], null, 2);

/** A saved code's page as the editor shows it. */
export const pageTextOf = (page: unknown) => (page ? JSON.stringify(page, null, 2) : '');

/** The page input field: absent on create and null on update (`unset`) when empty, or the JSON's problem. */
export function pageInput(text: string, unset: null | undefined): { value?: unknown } | { problem: FieldProblem } {
  if (text.trim() === '') return unset === undefined ? {} : { value: null };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (err) {
    return { problem: { path: 'page', message: currentMessages().editor.invalidJson((err as Error).message) } };
  }
}

type Card = Record<string, unknown> & { kind: 'business_card'; photo_image_id?: string };

/** The page typed, when it is a business card (JSON that parses, of that kind); else null. */
export function businessCardOf(text: string): Card | null {
  try {
    const page = JSON.parse(text) as unknown;
    return typeof page === 'object' && page !== null && (page as Card).kind === 'business_card' ? (page as Card) : null;
  } catch {
    return null;
  }
}

/** The card's JSON with `photo_image_id` set to an uploaded image, or left out for '' (no photo). */
export function withPhoto(card: Card, imageId: string): string {
  const next: Record<string, unknown> = { ...card, photo_image_id: imageId };
  if (!imageId) delete next.photo_image_id;
  return JSON.stringify(next, null, 2);
}
