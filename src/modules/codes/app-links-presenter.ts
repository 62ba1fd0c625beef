// The public JSON of a code's app links and UTM fields: every key present, null where unset, so
// clients read one shape (the input schemas let fields be left out).
import { z } from 'zod';
import { appLinkLocation, type AppLinks, type AppTarget } from './app-links.ts';
import { UTM_FIELDS, type Utm, type UtmField } from './utm.ts';

const appTargetResourceSchema = z
  .object({
    link: z.string().nullable().meta({ example: 'https://app.example.com/item/42' }),
    store_url: z.string().nullable().meta({ example: 'https://apps.apple.com/app/id1234567890' }),
    open_custom_scheme: z.boolean(),
    redirect_url: z.string().meta({
      description: 'Where a scan from this OS is redirected when no routing rule matched: the link or the store page.',
      example: 'https://app.example.com/item/42',
    }),
  })
  .nullable()
  .meta({ id: 'AppTarget' });

export const appLinksResourceSchema = z
  .object({ ios: appTargetResourceSchema, android: appTargetResourceSchema })
  .nullable()
  .meta({
    id: 'AppLinks',
    description:
      'Url codes: where scans from iOS and Android go when no routing rule matched, instead of the destination; ' +
      'null when the code has none.',
  });

export const utmResourceSchema = z
  .object(
    Object.fromEntries(UTM_FIELDS.map((f) => [f, z.string().nullable()])) as Record<
      UtmField,
      z.ZodNullable<z.ZodString>
    >,
  )
  .nullable()
  .meta({
    id: 'Utm',
    description: 'Url codes: UTM parameters merged into the destination at scan time; null when the code has none.',
    example: {
      utm_source: 'poster',
      utm_medium: 'print',
      utm_campaign: 'spring-2026',
      utm_term: null,
      utm_content: null,
    },
  });

function presentTarget(target: AppTarget | null) {
  if (!target) return null;
  return {
    link: target.link ?? null,
    store_url: target.store_url ?? null,
    open_custom_scheme: target.open_custom_scheme ?? false,
    redirect_url: appLinkLocation(target),
  };
}

export function presentAppLinks(links: AppLinks | null): z.output<typeof appLinksResourceSchema> {
  return links && { ios: presentTarget(links.ios), android: presentTarget(links.android) };
}

export function presentUtm(utm: Utm | null): z.output<typeof utmResourceSchema> {
  return utm && (Object.fromEntries(UTM_FIELDS.map((f) => [f, utm[f] ?? null])) as Record<UtmField, string | null>);
}
