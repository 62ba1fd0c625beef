// GraphQL types, queries and mutations for codes. Inputs arrive in GraphQL's camelCase; they
// are put in the shape of REST's body and parsed with the same zod schemas, and the typed
// result goes to the same service functions. Enums are the schemas' own values.
import { builder } from '../../graphql/builder.ts';
import { enumOf } from '../../graphql/enums.ts';
import { compact, snakeKeys } from '../../graphql/inputs.ts';
import { connectionOf, forwardOnly, orNull } from '../../graphql/pages.ts';
import { scoped } from '../../graphql/scoped.ts';
import { zodInputType } from '../../graphql/zod-inputs.ts';
import { parseInput } from '../../shared/validation.ts';
import { RoutingInputRef, RoutingRef } from '../routing/graphql.ts';
import {
  addAppLinkFields,
  APP_LINK_NULL_CLEARS,
  appLinkBodyFields,
  AppLinksInputRef,
  UtmInputRef,
} from './app-links-graphql.ts';
import { addPreviewField, previewBodyField, PreviewInputRef } from './preview-graphql.ts';
import {
  addLifecycleFields,
  CodeStatusEnum,
  LIFECYCLE_INPUT_DESCRIPTIONS,
  LIFECYCLE_NULL_CLEARS,
} from './lifecycle-graphql.ts';
import { designWarnings, resolveDesign, type Code, type DesignWarning, type ResolvedDesign } from './model.ts';
import { payloadOf, scanUrl } from './payload.ts';
import {
  codeTypeSchema,
  createCodeSchema,
  designInputSchema,
  errorCorrectionSchema,
  eyeStyleSchema,
  frameSchema,
  gradientTypeSchema,
  listCodesSchema,
  parseCreateCode,
  styleSchema,
  updateCodeSchema,
  type CreateCodeInput as CreateCodeBody,
} from './schemas.ts';
import type { CodesService } from './service.ts';

declare module '../../graphql/context.ts' {
  interface GraphQLServices {
    codes: CodesService;
  }
}

export const CodeTypeEnum = enumOf(
  'CodeType',
  codeTypeSchema,
  'url codes are dynamic (the image encodes the scan URL); the others encode their content.',
);
const QrStyleEnum = enumOf('QrStyle', styleSchema, 'How modules are drawn.');
const ErrorCorrectionEnum = enumOf(
  'ErrorCorrection',
  errorCorrectionSchema,
  'QR error correction level, L (7%) to H (30%).',
);
const EyeStyleEnum = enumOf('EyeStyle', eyeStyleSchema, 'How the three finder patterns are drawn.');
const FrameEnum = enumOf('Frame', frameSchema, 'none, or a banner with frameText under the code.');
const GradientTypeEnum = enumOf('GradientType', gradientTypeSchema);

type Gradient = NonNullable<ResolvedDesign['gradient']>;

const GradientRef = builder.objectRef<Gradient>('Gradient').implement({
  fields: (t) => ({
    type: t.expose('type', { type: GradientTypeEnum }),
    from: t.exposeString('from'),
    to: t.exposeString('to'),
    angle: t.exposeFloat('angle'),
  }),
});

const DesignRef = builder.objectRef<ResolvedDesign>('CodeDesign').implement({
  description: 'How the code is drawn, with defaults filled in.',
  fields: (t) => ({
    fgColor: t.exposeString('fg_color'),
    bgColor: t.exposeString('bg_color'),
    style: t.expose('style', { type: QrStyleEnum }),
    logoUrl: t.exposeString('logo_url', { nullable: true }),
    logoImageId: t.exposeString('logo_image_id', {
      nullable: true,
      description: 'The uploaded image (Query.image) drawn as the logo, if any.',
    }),
    errorCorrection: t.expose('error_correction', { type: ErrorCorrectionEnum }),
    eyeStyle: t.expose('eye_style', { type: EyeStyleEnum }),
    eyeColor: t.exposeString('eye_color'),
    gradient: t.field({ type: GradientRef, nullable: true, resolve: (d) => d.gradient }),
    frame: t.expose('frame', { type: FrameEnum }),
    frameText: t.exposeString('frame_text', { nullable: true }),
    margin: t.exposeInt('margin'),
    allowLightOnDark: t.exposeBoolean('allow_light_on_dark', {
      description: 'Modules lighter than the background were accepted (see Code.warnings).',
    }),
  }),
});

const CodeWarningRef = builder.objectRef<DesignWarning>('CodeWarning').implement({
  description: 'Something worth knowing about a code that was saved as it is.',
  fields: (t) => ({
    code: t.exposeString('code', {
      description:
        'light_on_dark: the modules are lighter than the background (design.allowLightOnDark), which zbar, the ' +
        'readers built on it and many phone cameras cannot read.',
    }),
    message: t.exposeString('message'),
  }),
});

export const CodeRef = builder.objectRef<Code>('Code').implement({
  description: 'A QR code: what it encodes, how it looks and where its scans go.',
  fields: (t) => ({
    id: t.exposeID('id'),
    type: t.expose('type', { type: CodeTypeEnum }),
    content: t.field({
      type: 'JSON',
      description: "The URL of a url code, or a static code's content object.",
      resolve: (code) => code.content,
    }),
    slug: t.exposeString('slug', { nullable: true, description: 'The scan URL’s path; null for static codes.' }),
    forwardQuery: t.exposeBoolean('forwardQuery', {
      description: 'Scans carry the scan URL’s query string on to the destination (url codes).',
    }),
    passwordProtected: t.boolean({
      description:
        'Scans must give the code’s password on an unlock page before they redirect (url codes). The password ' +
        'itself is never returned.',
      resolve: (code) => code.passwordHash !== null,
    }),
    name: t.exposeString('name', { nullable: true, description: 'A title for people; null when none was given.' }),
    notes: t.exposeString('notes', { nullable: true }),
    tags: t.exposeStringList('tags', {
      description:
        'Names of the account’s tags the code carries, sorted by name (case ignored); Query.tags lists the tags ' +
        'themselves.',
    }),
    payload: t.string({
      description: 'The exact text the image encodes.',
      resolve: (code, _args, ctx) => payloadOf(code, ctx.services.config.publicBaseUrl),
    }),
    design: t.field({ type: DesignRef, resolve: (code) => resolveDesign(code.design) }),
    warnings: t.field({
      type: [CodeWarningRef],
      description: 'What is worth knowing about the code as saved; empty for most.',
      resolve: (code) => designWarnings(code.design),
    }),
    routing: t.field({ type: RoutingRef, resolve: (code) => code.routing }),
    scanUrl: t.string({
      nullable: true,
      description: 'Null for static codes.',
      resolve: (code, _args, ctx) =>
        code.slug ? scanUrl(ctx.services.config.publicBaseUrl, code.slug, code.domain) : null,
    }),
    importedScans: t.exposeInt('importedScans', {
      description:
        'Scans the code had at the service it was imported from, kept as history: never part of the scans recorded ' +
        'here or of an analytics total. 0 for a code not imported.',
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (code) => code.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (code) => code.updatedAt }),
  }),
});
addLifecycleFields(CodeRef);
addAppLinkFields(CodeRef);
addPreviewField(CodeRef);
builder.objectField(CodeRef, 'page', (t) =>
  t.field({
    type: 'JSON',
    nullable: true,
    description:
      'Url codes: the hosted page scans are answered with, as REST shows it (`{ kind, ... }`, snake_case keys); ' +
      'null: the scan redirects.',
    resolve: (code) => code.page,
  }),
);

const GradientInput = zodInputType('GradientInput', designInputSchema.shape.gradient.unwrap(), {
  descriptions: { type: 'linear or radial' },
});

const DesignInput = zodInputType('CodeDesignInput', designInputSchema, {
  description: 'Design fields; omitted ones keep their defaults. In updateCode, null resets a field.',
  types: { gradient: GradientInput },
  descriptions: {
    fgColor: '#rrggbb',
    bgColor: '#rrggbb',
    style: 'square, dots, rounded or branded',
    logoUrl: 'http(s) URL of a logo',
    logoImageId: 'An uploaded image (POST /v1/images) as the logo, in place of logoUrl',
    errorCorrection: 'L, M, Q or H',
    eyeStyle: 'square, rounded or circle',
    eyeColor: '#rrggbb',
    frame: 'none or banner',
    frameText: 'Call to action under a banner frame, e.g. "Scan me".',
    margin: 'Quiet zone in modules, 2 to 16.',
    allowLightOnDark:
      'Accept modules lighter than the background; refused without it, since zbar, the readers built on it and ' +
      'many phone cameras do not read light-on-dark codes. Such a code carries a light_on_dark warning.',
  },
});

const DeleteCodePayload = builder.objectRef<{ deletedId: string }>('DeleteCodePayload').implement({
  fields: (t) => ({ deletedId: t.exposeID('deletedId') }),
});

/**
 * The fields of both code inputs the zod types do not give: the nested inputs, and the status,
 * whose GraphQL names are upper case (ACTIVE) where the zod enum's values are not.
 */
const CODE_INPUT_TYPES = {
  status: CodeStatusEnum,
  design: DesignInput,
  routing: RoutingInputRef,
  appLinks: AppLinksInputRef,
  utm: UtmInputRef,
  preview: PreviewInputRef,
  // A page is one of three shapes (its kind says which): GraphQL inputs have no unions, so it is
  // JSON in REST's shape (snake_case keys), checked by the same zod schema.
  page: 'JSON' as const,
};

export const CreateCodeInputRef = zodInputType('CreateCodeInput', createCodeSchema, {
  types: CODE_INPUT_TYPES,
  descriptions: {
    type: "Defaults to 'url'.",
    content: 'A URL for url codes, an object for static types.',
    forwardQuery: 'Url codes: append the scan URL’s query string to the destination (UTM passthrough). Default false.',
    slug:
      'A custom slug (url codes): 3-64 of A-Z a-z 0-9 _ -, case-sensitive; taken ever before (on the same domain) ' +
      'is a CONFLICT. Random when left out.',
    domain:
      'One of the account’s verified domains (url codes): the scan URL is https://<domain>/<slug>. The service’s ' +
      'own when left out.',
    name: 'A title for people (not unique), 1-200 characters.',
    notes: 'Free text, up to 10,000 characters.',
    tags: 'Tag names (0-20); a name the account has no tag for creates it, an existing tag matches ignoring case.',
    password:
      'Url codes: a password (1-128 characters) scans must give before they redirect; stored as an argon2id hash, ' +
      'never returned.',
    page: 'Url codes: a hosted page as REST takes it, `{ kind, ... }` (business_card, app_download or links).',
    ...LIFECYCLE_INPUT_DESCRIPTIONS,
  },
});

const UpdateCodeInput = zodInputType('UpdateCodeInput', updateCodeSchema, {
  // The type is fixed at creation (the schema only refuses it), and `destination` is REST's
  // other name for a url code's content.
  omit: ['type', 'destination'],
  types: CODE_INPUT_TYPES,
  descriptions: {
    content: 'New URL of a url code, or new content of a static code.',
    slug: 'A new slug (url codes): the scan URL and image change, and the old slug is retired for good.',
    domain:
      'Another verified domain of the account (url codes), or null for the service’s own: the scan URL and image ' +
      'change, and the slug is retired on the old domain.',
    name: 'A new title; null removes it.',
    notes: 'New notes; null removes them.',
    tags: 'The code’s tags from now on (replacing its old ones); [] removes them all.',
    password: 'A new password (url codes, 1-128 characters); null removes the password.',
    appLinks: 'App targets per OS (url codes), replacing the old ones whole; null removes them.',
    utm: 'UTM fields (url codes), replacing the old ones whole; null removes them.',
    preview: 'A social preview (url codes), replacing the old one whole; null removes it.',
    page: 'A hosted page (url codes) as REST takes it, `{ kind, ... }`, replacing the old one whole; null removes it.',
    ...LIFECYCLE_INPUT_DESCRIPTIONS,
  },
  zodDescriptions: false,
});

const CodeFilter = zodInputType('CodeFilter', listCodesSchema, {
  // Paging and order are the connection's arguments; REST's repeatable `tag` is the list `tags`.
  omit: ['limit', 'cursor', 'sort', 'tag'],
  types: { status: [CodeStatusEnum] },
  descriptions: {
    q: 'Substring of the content or the name, in any case.',
    status: 'Only codes with these statuses; default ACTIVE and PAUSED (archived codes are hidden unless asked for).',
  },
  fields: (t) => ({
    tags: t.stringList({
      required: false,
      description: 'Codes carrying any of these tags (names, case ignored); an unknown name matches nothing.',
    }),
  }),
});

const CodeSort = builder.enumType('CodeSort', {
  values: {
    CREATED_AT_ASC: { value: 'created_at' },
    CREATED_AT_DESC: { value: '-created_at' },
    UPDATED_AT_ASC: { value: 'updated_at' },
    UPDATED_AT_DESC: { value: '-updated_at' },
  } as const,
});

/** Where an explicit null in updateCode means "remove" rather than "not given". */
const NULL_CLEARS_ON_UPDATE = [
  'name',
  'notes',
  'domain',
  'password',
  'page',
  ...APP_LINK_NULL_CLEARS,
  'preview',
  ...LIFECYCLE_NULL_CLEARS,
];

/** A design in the schemas' shape; null stays (in updateCode it resets a field). */
function toDesign(design: typeof DesignInput.$inferInput) {
  const { gradient, ...fields } = design;
  return {
    ...snakeKeys(fields, Object.keys(fields)),
    ...(gradient !== undefined ? { gradient: gradient && compact(gradient) } : {}),
  };
}

/** Inline rules from GraphQL: nulls dropped, so the schema sees absent fields. */
function toRouting(routing: typeof RoutingInputRef.$inferInput) {
  return compact({ enabled: routing.enabled, rules: routing.rules?.map((rule) => compact(rule)) });
}

/**
 * A CreateCodeInput or UpdateCodeInput in the shape of REST's body, for the same zod schema:
 * design and routing converted on their own, every other field by its name. Nulls are dropped
 * except in `nullClears` (lifecycle fields keep theirs on create too: a null status is refused).
 */
function toCodeBody(
  input: typeof CreateCodeInputRef.$inferInput | typeof UpdateCodeInput.$inferInput,
  nullClears: readonly string[],
): Record<string, unknown> {
  const { design, routing, appLinks, utm, preview, ...fields } = input;
  return {
    ...snakeKeys(fields, nullClears),
    // A null on create means none, as REST takes it; snakeKeys drops it the same way for the other fields.
    ...appLinkBodyFields(nullClears.includes('appLinks') ? { appLinks, utm } : compact({ appLinks, utm })),
    ...previewBodyField(preview, nullClears.includes('preview')),
    ...(design ? { design: toDesign(design) } : {}),
    ...(routing ? { routing: toRouting(routing) } : {}),
  };
}

/**
 * A CreateCodeInputRef as POST /codes's body: bulkCreateCodes hands these to the bulk service, which parses each item
 * itself.
 */
export const toCreateBody = (input: typeof CreateCodeInputRef.$inferInput) => toCodeBody(input, LIFECYCLE_NULL_CLEARS);

/** A CreateCodeInputRef parsed as POST /codes parses its body. */
export const parseCreate = (input: typeof CreateCodeInputRef.$inferInput): CreateCodeBody =>
  parseCreateCode(toCreateBody(input));

builder.queryFields((t) => ({
  code: t.field({
    type: CodeRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('codes:read', (_root, { id }, ctx) => orNull(ctx.services.codes.get(ctx.principal, String(id)))),
  }),
  codes: t.connection({
    type: CodeRef,
    description: "The caller's codes, newest first unless sorted otherwise. Forward pagination only.",
    args: {
      filter: t.arg({ type: CodeFilter, required: false }),
      sort: t.arg({ type: CodeSort, required: false }),
    },
    resolve: scoped('codes:read', async (_root, args, ctx) => {
      forwardOnly(args);
      const { tags, ...filter } = args.filter ?? {};
      const query = parseInput(listCodesSchema, {
        ...snakeKeys(filter),
        ...compact({ limit: args.first, cursor: args.after, sort: args.sort, tag: tags?.length ? tags : undefined }),
      });
      return connectionOf(await ctx.services.codes.list(ctx.principal, query), args.after);
    }),
  }),
}));

builder.mutationFields((t) => ({
  createCode: t.field({
    type: CodeRef,
    args: { input: t.arg({ type: CreateCodeInputRef, required: true }) },
    resolve: scoped('codes:write', (_root, { input }, ctx) =>
      ctx.services.codes.create(ctx.principal, parseCreate(input)),
    ),
  }),
  updateCode: t.field({
    type: CodeRef,
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateCodeInput, required: true }) },
    resolve: scoped('codes:write', (_root, { id, input }, ctx) =>
      ctx.services.codes.update(
        ctx.principal,
        String(id),
        parseInput(updateCodeSchema, toCodeBody(input, NULL_CLEARS_ON_UPDATE)),
      ),
    ),
  }),
  deleteCode: t.field({
    type: DeleteCodePayload,
    args: { id: t.arg.id({ required: true }) },
    resolve: scoped('codes:write', async (_root, { id }, ctx) => {
      await ctx.services.codes.remove(ctx.principal, String(id));
      return { deletedId: String(id) };
    }),
  }),
}));
