// The files a verified own domain serves under /.well-known/ so that phones open an app for its
// links (universal links on iOS, App Links on Android): each a per-domain JSON setting, checked
// here against the file's documented shape (Apple's "Supporting associated domains", Google's
// Digital Asset Links) so that a typo is a 422 now rather than a silent failure on phones later.
import { z } from 'zod';

/** The paths served, and the setting each one is. */
export const WELL_KNOWN_FILES = {
  '/.well-known/apple-app-site-association': 'apple_app_site_association',
  '/.well-known/assetlinks.json': 'assetlinks',
} as const;
export type WellKnownPath = keyof typeof WELL_KNOWN_FILES;

/** `<Team ID>.<bundle ID>`, as Apple's appIDs take them. */
const appIdSchema = z
  .string({ error: 'must be a string' })
  .regex(/^[A-Z0-9]{10}\.[A-Za-z0-9.-]{1,155}$/, 'must be a team ID and a bundle ID, e.g. ABCDE12345.com.example.app');
const appIdsSchema = z.array(appIdSchema).min(1, 'must name at least one app').max(50, 'must be at most 50 apps');

const pattern = z.string({ error: 'must be a string' }).max(1024, 'must be at most 1024 characters');

/** One entry of `components`: a URL pattern by path, query and fragment (Apple's keys). */
const componentSchema = z.strictObject({
  '/': pattern.optional(),
  '?': z.union([pattern, z.record(z.string().max(256), pattern)]).optional(),
  '#': pattern.optional(),
  exclude: z.boolean().optional(),
  caseSensitive: z.boolean().optional(),
  percentEncoded: z.boolean().optional(),
  comment: pattern.optional(),
});

export const appleAppSiteAssociationSchema = z
  .strictObject({
    applinks: z.strictObject({
      details: z
        .array(
          z.strictObject({
            appIDs: appIdsSchema,
            components: z.array(componentSchema).min(1, 'must have at least one').max(200, 'at most 200'),
          }),
        )
        .min(1, 'must have at least one entry')
        .max(50, 'must be at most 50 entries'),
    }),
    webcredentials: z.strictObject({ apps: appIdsSchema }).optional(),
    appclips: z.strictObject({ apps: appIdsSchema }).optional(),
  })
  .nullable()
  .meta({
    description:
      'The JSON served at `/.well-known/apple-app-site-association` on this domain once it is verified (iOS ' +
      'universal links): `applinks.details` with `appIDs` (`<Team ID>.<bundle ID>`) and `components`, optionally ' +
      '`webcredentials` and `appclips`. Null: 404.',
    example: {
      applinks: { details: [{ appIDs: ['ABCDE12345.com.example.app'], components: [{ '/': '/item/*' }] }] },
    },
  });
export type AppleAppSiteAssociation = NonNullable<z.output<typeof appleAppSiteAssociationSchema>>;

/** A SHA-256 signing-certificate fingerprint as Android prints it: 32 upper-case hex bytes joined by colons. */
const fingerprintSchema = z
  .string({ error: 'must be a string' })
  .regex(/^(?:[0-9A-F]{2}:){31}[0-9A-F]{2}$/, 'must be a SHA-256 fingerprint: 32 upper-case hex bytes joined by `:`');

export const assetlinksSchema = z
  .array(
    z.strictObject({
      relation: z
        .array(
          z
            .string()
            .regex(/^[a-z_]+\/[a-z_.]+$/, 'must be a relation such as delegate_permission/common.handle_all_urls'),
        )
        .min(1, 'must have at least one relation')
        .max(10),
      target: z.strictObject({
        namespace: z.literal('android_app', { error: 'must be android_app' }),
        package_name: z
          .string({ error: 'must be a string' })
          .max(255)
          .regex(/^[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)+$/, 'must be an Android package name'),
        sha256_cert_fingerprints: z.array(fingerprintSchema).min(1, 'must have at least one').max(10),
      }),
    }),
  )
  .min(1, 'must have at least one statement; null removes the file')
  .max(20, 'must be at most 20 statements')
  .nullable()
  .meta({
    description:
      'The statements served at `/.well-known/assetlinks.json` on this domain once it is verified (Android App ' +
      'Links): each a `relation` list and an `android_app` target with `package_name` and ' +
      '`sha256_cert_fingerprints`. Null: 404.',
    example: [
      {
        relation: ['delegate_permission/common.handle_all_urls'],
        target: {
          namespace: 'android_app',
          package_name: 'com.example.app',
          sha256_cert_fingerprints: [
            '14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5',
          ],
        },
      },
    ],
  });
export type Assetlinks = NonNullable<z.output<typeof assetlinksSchema>>;

/** The bodies a verified domain serves, serialised once when the verified set is read. */
export type WellKnownBodies = Partial<Record<WellKnownPath, string>>;

export function wellKnownBodies(files: {
  appleAppSiteAssociation: AppleAppSiteAssociation | null;
  assetlinks: Assetlinks | null;
}): WellKnownBodies {
  const bodies: WellKnownBodies = {};
  if (files.appleAppSiteAssociation)
    bodies['/.well-known/apple-app-site-association'] = JSON.stringify(files.appleAppSiteAssociation);
  if (files.assetlinks) bodies['/.well-known/assetlinks.json'] = JSON.stringify(files.assetlinks);
  return bodies;
}
