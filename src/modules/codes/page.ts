// A url code's hosted page (issue 36): a business card, an app download page or a list of links
// that the scan answers with, served by us (the pages module renders it), in place of the redirect
// to the destination. It is a field of a url code, like app_links, not a code type of its own:
// such a code keeps its slug, lifecycle, password, routing rules and analytics, and a page can be
// put on a printed code, changed or taken off (null: scans redirect to the destination again).
// The page is stored as the parsed input: every list present, absent optional fields left out.
import { z } from 'zod';
import { MAX_URL_LENGTH, isHttpUrl } from '../../shared/url.ts';
import { emailAddress, freeText, line, phoneNumber, postalAddressShape } from './content-shapes.ts';

export const PAGE_KINDS = ['business_card', 'app_download', 'links'] as const;
export type PageKind = (typeof PAGE_KINDS)[number];

/** Most links a list of links holds: a page people scroll on a phone, not a directory. */
export const MAX_PAGE_LINKS = 50;
const MAX_CARD_LINKS = 10;
/** A page's whole size as JSON: with the markup around it, its HTML stays under 30 KB. */
const MAX_PAGE_JSON = 16_000;
const MAX_CARD_ENTRIES = 5;

const webUrl = (protocols: readonly string[], message: string) =>
  z
    .string({ error: 'must be a string' })
    .trim()
    .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
    .refine((value) => isHttpUrl(value) && protocols.includes(new URL(value).protocol), message);

const httpLink = webUrl(['http:', 'https:'], 'must be an absolute http:// or https:// URL');
const storeLink = webUrl(['https:'], 'must be an absolute https:// URL');

const linkSchema = z.strictObject({
  label: line(80),
  url: httpLink,
});

const entryLabel = line(40).optional().meta({ description: 'What the entry is, e.g. Work or Mobile.' });
const phoneEntry = z.strictObject({ label: entryLabel, number: phoneNumber });
const emailEntry = z.strictObject({ label: entryLabel, address: emailAddress });

const listOf = <T extends z.ZodType>(item: T, max: number) =>
  z.array(item, { error: 'must be a list' }).max(max, `must have at most ${max} entries`).default([]);

export const businessCardPageSchema = z
  .strictObject({
    kind: z.literal('business_card'),
    name: line(120),
    title: line(120).optional(),
    organization: line(120).optional(),
    phones: listOf(phoneEntry, MAX_CARD_ENTRIES),
    emails: listOf(emailEntry, MAX_CARD_ENTRIES),
    address: postalAddressShape.optional(),
    links: listOf(linkSchema, MAX_CARD_LINKS),
    note: freeText(500).optional(),
    photo_image_id: z
      .string({ error: 'must be a string' })
      .max(64, 'is not an image of this workspace')
      .optional()
      .meta({
        description:
          'An image the workspace uploaded (`POST /v1/images`): the page shows it (served at ' +
          '`<scan URL>/photo.png`, at most 256 px a side) and the vCard carries it as its PHOTO.',
        example: 'img_8kD2mQ9xT4pL0aZc7VbN',
      }),
  })
  .meta({
    description:
      'A digital business card: the page shows the fields and a "Save contact" button that downloads a vCard 4.0 ' +
      '(`<scan URL>/contact.vcf`). Phones are stored as + and digits.',
  });

export const appDownloadPageSchema = z
  .strictObject({
    kind: z.literal('app_download'),
    app_name: line(80),
    description: freeText(500).optional(),
    app_store_url: storeLink.optional(),
    play_store_url: storeLink.optional(),
  })
  .refine((page) => page.app_store_url !== undefined || page.play_store_url !== undefined, {
    path: ['app_store_url'],
    message: 'give app_store_url, play_store_url or both',
  })
  .meta({
    description:
      'An app download page: a scan from iOS is redirected to app_store_url, from Android to play_store_url; ' +
      'everyone else sees the page with a badge per store.',
  });

export const linksPageSchema = z
  .strictObject({
    kind: z.literal('links'),
    title: line(120),
    description: freeText(500).optional(),
    links: z
      .array(linkSchema, { error: 'must be a list' })
      .min(1, 'must have at least 1 entry')
      .max(MAX_PAGE_LINKS, `must have at most ${MAX_PAGE_LINKS} entries`),
  })
  .meta({ description: 'A list of links (link in bio): a title, an optional description and the links in order.' });

export const pageSchema = z
  .discriminatedUnion('kind', [businessCardPageSchema, appDownloadPageSchema, linksPageSchema], {
    error: `must be an object whose kind is one of ${PAGE_KINDS.join(', ')}`,
  })
  // A page of 50 long links would not stay under 30 KB over the wire; this bounds the HTML.
  .refine((page) => JSON.stringify(page).length <= MAX_PAGE_JSON, {
    message: `is too large: at most ${MAX_PAGE_JSON.toLocaleString('en')} characters as JSON in all`,
  })
  .meta({
    id: 'Page',
    description:
      'Url codes: a page the service hosts and the scan answers with instead of redirecting to the destination ' +
      '(routing rules still decide first: a rule that matches redirects). Replaced whole; null removes it. The ' +
      'destination stays the code’s content: where scans go again once the page is removed.',
    example: {
      kind: 'links',
      title: 'Ada’s bakery',
      links: [{ label: 'Menu', url: 'https://bakery.example/menu' }],
    },
  });

export type Page = z.output<typeof pageSchema>;
export type BusinessCardPage = z.output<typeof businessCardPageSchema>;
export type AppDownloadPage = z.output<typeof appDownloadPageSchema>;
export type LinksPage = z.output<typeof linksPageSchema>;
