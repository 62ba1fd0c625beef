// GraphQL for a url code's app links and UTM fields: the fields on Code (the REST presenter's
// shape, camelCase), the input types derived from the same zod schemas, and the conversion of
// those inputs back to REST's body shape.
import type { ObjectRef } from '@pothos/core';
import { builder } from '../../graphql/builder.ts';
import { compact, snakeKeys } from '../../graphql/inputs.ts';
import { zodInputType } from '../../graphql/zod-inputs.ts';
import { presentAppLinks, presentUtm } from './app-links-presenter.ts';
import { appLinksSchema, appTargetSchema } from './app-links.ts';
import type { Code } from './model.ts';
import { utmSchema } from './utm.ts';

type AppTargetJson = NonNullable<NonNullable<ReturnType<typeof presentAppLinks>>['ios']>;
type AppLinksJson = NonNullable<ReturnType<typeof presentAppLinks>>;
type UtmJson = NonNullable<ReturnType<typeof presentUtm>>;

const AppTargetRef = builder.objectRef<AppTargetJson>('AppTarget').implement({
  description: 'Where scans from one OS go when no routing rule matched.',
  fields: (t) => ({
    link: t.exposeString('link', { nullable: true, description: 'A universal link / App Link, or a custom scheme.' }),
    storeUrl: t.exposeString('store_url', { nullable: true, description: 'The app’s store page (https).' }),
    openCustomScheme: t.exposeBoolean('open_custom_scheme', {
      description: 'A custom-scheme link is redirected to itself, not to the store page.',
    }),
    redirectUrl: t.exposeString('redirect_url', { description: 'Where such a scan is redirected.' }),
  }),
});

const AppLinksRef = builder.objectRef<AppLinksJson>('AppLinks').implement({
  description: 'A url code’s app targets per OS (iPadOS counts as iOS).',
  fields: (t) => ({
    ios: t.field({ type: AppTargetRef, nullable: true, resolve: (links) => links.ios }),
    android: t.field({ type: AppTargetRef, nullable: true, resolve: (links) => links.android }),
  }),
});

const UtmRef = builder.objectRef<UtmJson>('Utm').implement({
  description: 'UTM parameters merged into a url code’s destination at scan time.',
  fields: (t) => ({
    utmSource: t.exposeString('utm_source', { nullable: true }),
    utmMedium: t.exposeString('utm_medium', { nullable: true }),
    utmCampaign: t.exposeString('utm_campaign', { nullable: true }),
    utmTerm: t.exposeString('utm_term', { nullable: true }),
    utmContent: t.exposeString('utm_content', { nullable: true }),
  }),
});

/** Adds appLinks and utm to the Code type (called by codes/graphql.ts with its CodeRef). */
export function addAppLinkFields(ref: ObjectRef<typeof builder.$inferSchemaTypes, Code>): void {
  builder.objectFields(ref, (t) => ({
    appLinks: t.field({
      type: AppLinksRef,
      nullable: true,
      description:
        'Url codes: per OS, where scans go instead of the destination when no routing rule matched; null: none.',
      resolve: (code) => presentAppLinks(code.appLinks),
    }),
    utm: t.field({
      type: UtmRef,
      nullable: true,
      description: 'Url codes: UTM parameters merged into the destination at scan time; null: none.',
      resolve: (code) => presentUtm(code.utm),
    }),
  }));
}

const AppTargetInput = zodInputType('AppTargetInput', appTargetSchema, {
  descriptions: {
    link: 'The app’s universal link / App Link (https) or custom-scheme deep link; not javascript:, data: or file:.',
    storeUrl: 'The store page (https); needed with a custom-scheme link unless openCustomScheme.',
    openCustomScheme: 'Redirect to the custom-scheme link itself (an error page where the app is missing).',
  },
});

export const AppLinksInputRef = zodInputType('AppLinksInput', appLinksSchema, {
  description: 'App targets per OS, replacing the code’s old ones whole.',
  types: { ios: AppTargetInput, android: AppTargetInput },
});

export const UtmInputRef = zodInputType('UtmInput', utmSchema, {
  description: 'UTM fields (1-200 characters each, at least one), replacing the code’s old ones whole.',
});

/** The input fields where an explicit null removes what the code had (updateCode). */
export const APP_LINK_NULL_CLEARS = ['appLinks', 'utm'] as const;

/** GraphQL's appLinks and utm inputs in REST's body shape; null stays (it removes them on update). */
export function appLinkBodyFields(input: {
  appLinks?: typeof AppLinksInputRef.$inferInput | null;
  utm?: typeof UtmInputRef.$inferInput | null;
}): Record<string, unknown> {
  const target = (t: typeof AppTargetInput.$inferInput | null | undefined) => t && snakeKeys(t);
  return {
    ...(input.appLinks !== undefined
      ? {
          app_links:
            input.appLinks && compact({ ios: target(input.appLinks.ios), android: target(input.appLinks.android) }),
        }
      : {}),
    ...(input.utm !== undefined ? { utm: input.utm && snakeKeys(input.utm) } : {}),
  };
}
