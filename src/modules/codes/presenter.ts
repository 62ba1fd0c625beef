// The public JSON of a code, shared by REST answers and webhook payloads. The zod schema is the
// contract (it feeds the OpenAPI document); the presenter's return type is inferred from it, so
// the two cannot drift apart.
import { z } from 'zod';
import { inlineRuleResourceSchema, presentInlineRule } from '../routing/index.ts';
import { lifecycleResourceFields, presentLifecycle } from './lifecycle.ts';
import { designWarnings, resolveDesign, type Code } from './model.ts';
import { payloadOf, scanUrl } from './payload.ts';
import { presentPreview, previewResourceSchema } from './preview.ts';
import { appLinksResourceSchema, presentAppLinks, presentUtm, utmResourceSchema } from './app-links-presenter.ts';
import { pageSchema } from './page.ts';
import { CODE_TYPES, ERROR_CORRECTION_LEVELS, EYE_STYLES, FRAMES, STYLES } from './schemas.ts';

const color = z.string().meta({ example: '#1a73e8' });

export const resolvedDesignSchema = z
  .object({
    fg_color: color,
    bg_color: color,
    style: z.enum(STYLES),
    logo_url: z.string().nullable(),
    logo_image_id: z.string().nullable().meta({ description: 'The uploaded image drawn as the logo, if any.' }),
    error_correction: z.enum(ERROR_CORRECTION_LEVELS),
    eye_style: z.enum(EYE_STYLES),
    eye_color: color,
    gradient: z.object({ type: z.enum(['linear', 'radial']), from: color, to: color, angle: z.number() }).nullable(),
    frame: z.enum(FRAMES),
    frame_text: z.string().nullable(),
    margin: z.int().meta({ description: 'Quiet zone, in modules.' }),
    allow_light_on_dark: z
      .boolean()
      .meta({ description: 'Modules lighter than the background were accepted (see the code’s `warnings`).' }),
  })
  .meta({ id: 'Design', description: 'The design with every default filled in.' });

export const codeResourceSchema = z
  .object({
    id: z.string().meta({ example: 'qr_4fT9kQ2mX8pL' }),
    object: z.literal('code'),
    type: z.enum(CODE_TYPES),
    content: z.union([z.string(), z.record(z.string(), z.unknown())]).meta({
      description: 'A url code’s destination, or a static code’s structured content.',
      example: 'https://example.com/spring',
    }),
    payload: z
      .string()
      .meta({ description: 'The exact text the image encodes.', example: 'http://localhost:3000/aB3dE5f' }),
    name: z
      .string()
      .nullable()
      .meta({ description: 'A title for people; null when none was given.', example: 'Spring poster, Berlin' }),
    notes: z.string().nullable().meta({ example: 'Printed 2,000 copies; replace after the campaign.' }),
    forward_query: z
      .boolean()
      .meta({ description: 'Scans carry the scan URL’s query string on to the destination (url codes).' }),
    password_protected: z.boolean().meta({
      description:
        'Scans must give the code’s password on an unlock page before they redirect (url codes). The password ' +
        'itself is never returned.',
    }),
    app_links: appLinksResourceSchema,
    utm: utmResourceSchema,
    preview: previewResourceSchema,
    page: pageSchema.nullable(),
    tags: z.array(z.string()).meta({
      description: 'Names of the account’s tags the code carries, sorted by name (case ignored).',
      example: ['print', 'spring-2026'],
    }),
    ...lifecycleResourceFields,
    design: resolvedDesignSchema,
    warnings: z
      .array(
        z.object({
          code: z.enum(['light_on_dark']),
          message: z.string(),
        }),
      )
      .meta({
        description:
          'What is worth knowing about a code saved as it is; empty for most. `light_on_dark`: its modules are ' +
          'lighter than its background (allowed by `design.allow_light_on_dark`), which zbar, the readers built on ' +
          'it and many phone cameras cannot read.',
      }),
    routing: z.object({ enabled: z.boolean(), rules: z.array(inlineRuleResourceSchema) }),
    domain: z.string().nullable().meta({
      description: 'The account’s own domain the scan URL is on; null for the service’s own.',
      example: 'go.example.com',
    }),
    scan_url: z.string().nullable().meta({
      description: 'Null for static codes, which have no scan URL. `https://<domain>/<slug>` on an own domain.',
    }),
    imported_scans: z.int().meta({
      description:
        'Scans the code had at the service it was imported from (POST /v1/imports), kept as history: never part of ' +
        'the scans recorded here or of an analytics total. 0 for a code not imported, or imported without a count.',
      example: 0,
    }),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
  })
  .meta({ id: 'Code' });
export type CodeJson = z.output<typeof codeResourceSchema>;

export function presentCode(code: Code, publicBaseUrl: string): CodeJson {
  return {
    id: code.id,
    object: 'code',
    type: code.type,
    content: code.content,
    payload: payloadOf(code, publicBaseUrl),
    name: code.name,
    notes: code.notes,
    forward_query: code.forwardQuery,
    password_protected: code.passwordHash !== null,
    app_links: presentAppLinks(code.appLinks),
    utm: presentUtm(code.utm),
    preview: presentPreview(code.preview),
    page: code.page,
    tags: code.tags,
    ...presentLifecycle(code.lifecycle),
    design: resolveDesign(code.design),
    warnings: designWarnings(code.design),
    routing: {
      enabled: code.routing.enabled,
      rules: code.routing.rules.map(presentInlineRule),
    },
    domain: code.domain,
    scan_url: code.slug ? scanUrl(publicBaseUrl, code.slug, code.domain) : null,
    imported_scans: code.importedScans,
    created_at: code.createdAt.toISOString(),
    updated_at: code.updatedAt.toISOString(),
  };
}
