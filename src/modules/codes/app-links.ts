// A url code's app links: per OS (iOS, Android) an app target that replaces the destination for
// scans from that OS when no routing rule matched, so one printed code can open an app.
//
// A server cannot tell whether the app is installed, so a target is turned into one redirect,
// decided when the code is saved (appLinkLocation), with no interstitial page guessing with
// timers (Dub's device targeting is the same plain redirect; Bitly's script pages are not):
// - an http(s) link (a universal link or Android App Link) is the redirect: the phone opens the
//   app when it is installed and the domain's well-known files say so, the web page otherwise;
// - a custom-scheme link (`myapp://...`) opens nothing when the app is missing, so the scan goes
//   to the store page instead, unless the operator sets open_custom_scheme (their choice, and
//   their visitors' error page when the app is missing).
import { z } from 'zod';
import { MAX_URL_LENGTH, isHttpUrl } from '../../shared/url.ts';

/** Schemes a link may never have: they run or read something in the visitor's browser. */
const REFUSED_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:']);

/** An absolute URL of any scheme but the refused ones (`myapp://item/1`, `https://app.example/item/1`). */
export function isAppLink(value: string): boolean {
  return URL.canParse(value) && !REFUSED_SCHEMES.has(new URL(value).protocol);
}

const isHttpsUrl = (value: string) => isHttpUrl(value) && new URL(value).protocol === 'https:';

const urlString = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`);

const linkSchema = urlString
  .refine(isAppLink, 'must be an absolute URL; javascript:, data: and file: are refused')
  .meta({
    description:
      'The app’s link: a universal link / App Link (https) or a deep link of the app’s own scheme (`myapp://…`).',
    example: 'https://app.example.com/item/42',
  });

const storeUrlSchema = urlString.refine(isHttpsUrl, 'must be an absolute https:// URL').meta({
  description: 'The app’s store page (https): where scans go when the link is a custom scheme.',
  example: 'https://apps.apple.com/app/id1234567890',
});

export const appTargetSchema = z
  .strictObject({
    link: linkSchema.optional(),
    store_url: storeUrlSchema.optional(),
    open_custom_scheme: z
      .boolean({ error: 'must be true or false' })
      .optional()
      .meta({
        description:
          'Redirect to a custom-scheme link itself rather than the store page. The service cannot know whether the ' +
          'app is installed: without it the browser shows an error. Default false.',
      }),
  })
  .superRefine((target, ctx) => {
    if (target.link === undefined && target.store_url === undefined)
      ctx.addIssue({ code: 'custom', path: ['link'], message: 'give link, store_url or both' });
    const custom = target.link !== undefined && !isHttpUrl(target.link);
    if (custom && target.store_url === undefined && !target.open_custom_scheme)
      ctx.addIssue({
        code: 'custom',
        path: ['store_url'],
        message:
          'is needed for a custom-scheme link (scans go to the store page, since the service cannot tell whether ' +
          'the app is installed), unless open_custom_scheme is true',
      });
    if (target.open_custom_scheme && !custom)
      ctx.addIssue({ code: 'custom', path: ['open_custom_scheme'], message: 'applies to a custom-scheme link only' });
  })
  .meta({ description: 'Where scans from one OS go (see the code’s app_links).' });
export type AppTarget = z.output<typeof appTargetSchema>;

export const appLinksSchema = z
  .strictObject({
    ios: appTargetSchema.nullable().optional(),
    android: appTargetSchema.nullable().optional(),
  })
  .refine((links) => links.ios != null || links.android != null, {
    message: 'give ios, android or both; null removes the app links',
  })
  .meta({
    description:
      'Url codes: per OS, an app target that replaces the destination for scans from iOS (iPadOS too) or Android ' +
      'when no routing rule matched (rules decide first). An https link is redirected to as it is (a universal ' +
      'link opens the app when installed); a custom-scheme link sends scans to store_url unless ' +
      'open_custom_scheme is true. Neither forward_query nor utm is added to app targets. Replaced whole; null ' +
      'removes them.',
    example: {
      ios: { link: 'https://app.example.com/item/42', store_url: 'https://apps.apple.com/app/id1234567890' },
      android: {
        link: 'myapp://item/42',
        store_url: 'https://play.google.com/store/apps/details?id=com.example.app',
      },
    },
  });
export type AppLinksInput = z.output<typeof appLinksSchema>;

/** A code's app links as stored and presented: both OS keys, null for one without a target. */
export interface AppLinks {
  ios: AppTarget | null;
  android: AppTarget | null;
}

export const appLinksOf = (input: AppLinksInput): AppLinks => ({
  ios: input.ios ?? null,
  android: input.android ?? null,
});

/** The one URL a scan from the target's OS is redirected to (see the top of this file). */
export function appLinkLocation(target: AppTarget): string {
  const link = target.link;
  if (link !== undefined && (isHttpUrl(link) || target.open_custom_scheme)) return link;
  // The schema guarantees a store page whenever the link is not used.
  return target.store_url!;
}
