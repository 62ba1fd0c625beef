// GraphQL types, queries and mutations for codes. Inputs arrive in GraphQL's camelCase; they
// are put in the shape of REST's body and parsed with the same zod schemas, and the typed
// result goes to the same service functions. Enums are the schemas' own values.
import { builder } from '../../graphql/builder.ts';
import { compact, snakeKeys } from '../../graphql/inputs.ts';
import { connectionOf, forwardOnly, orNull } from '../../graphql/pages.ts';
import { scoped } from '../../graphql/scoped.ts';
import { parseInput } from '../../shared/validation.ts';
import { RoutingInputRef, RoutingRef } from '../routing/graphql.ts';
import {
  addLifecycleFields,
  CodeStatusEnum,
  LIFECYCLE_NULL_CLEARS,
  lifecycleInputFields,
} from './lifecycle-graphql.ts';
import { resolveDesign, type Code, type ResolvedDesign } from './model.ts';
import { payloadOf, scanUrl } from './payload.ts';
import {
  codeTypeSchema,
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

export const CodeTypeEnum = builder.enumType('CodeType', {
  description: 'url codes are dynamic (the image encodes the scan URL); the others encode their content.',
  values: codeTypeSchema.options,
});
const QrStyleEnum = builder.enumType('QrStyle', { description: 'How modules are drawn.', values: styleSchema.options });
const ErrorCorrectionEnum = builder.enumType('ErrorCorrection', {
  description: 'QR error correction level, L (7%) to H (30%).',
  values: errorCorrectionSchema.options,
});
const EyeStyleEnum = builder.enumType('EyeStyle', {
  description: 'How the three finder patterns are drawn.',
  values: eyeStyleSchema.options,
});
const FrameEnum = builder.enumType('Frame', {
  description: 'none, or a banner with frameText under the code.',
  values: frameSchema.options,
});
const GradientTypeEnum = builder.enumType('GradientType', { values: gradientTypeSchema.options });

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
    errorCorrection: t.expose('error_correction', { type: ErrorCorrectionEnum }),
    eyeStyle: t.expose('eye_style', { type: EyeStyleEnum }),
    eyeColor: t.exposeString('eye_color'),
    gradient: t.field({ type: GradientRef, nullable: true, resolve: (d) => d.gradient }),
    frame: t.expose('frame', { type: FrameEnum }),
    frameText: t.exposeString('frame_text', { nullable: true }),
    margin: t.exposeInt('margin'),
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
    routing: t.field({ type: RoutingRef, resolve: (code) => code.routing }),
    scanUrl: t.string({
      nullable: true,
      description: 'Null for static codes.',
      resolve: (code, _args, ctx) =>
        code.slug ? scanUrl(ctx.services.config.publicBaseUrl, code.slug, code.domain) : null,
    }),
    createdAt: t.field({ type: 'DateTime', resolve: (code) => code.createdAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (code) => code.updatedAt }),
  }),
});
addLifecycleFields(CodeRef);

const GradientInput = builder.inputType('GradientInput', {
  fields: (t) => ({
    type: t.field({ type: GradientTypeEnum, required: true, description: 'linear or radial' }),
    from: t.string({ required: true }),
    to: t.string({ required: true }),
    angle: t.float({ required: false }),
  }),
});

const DesignInput = builder.inputType('CodeDesignInput', {
  description: 'Design fields; omitted ones keep their defaults. In updateCode, null resets a field.',
  fields: (t) => ({
    fgColor: t.string({ required: false, description: '#rrggbb' }),
    bgColor: t.string({ required: false, description: '#rrggbb' }),
    style: t.field({ type: QrStyleEnum, required: false, description: 'square, dots, rounded or branded' }),
    logoUrl: t.string({ required: false, description: 'http(s) URL of a logo' }),
    errorCorrection: t.field({ type: ErrorCorrectionEnum, required: false, description: 'L, M, Q or H' }),
    eyeStyle: t.field({ type: EyeStyleEnum, required: false, description: 'square, rounded or circle' }),
    eyeColor: t.string({ required: false, description: '#rrggbb' }),
    gradient: t.field({ type: GradientInput, required: false }),
    frame: t.field({ type: FrameEnum, required: false, description: 'none or banner' }),
    frameText: t.string({ required: false, description: 'Call to action under a banner frame, e.g. "Scan me".' }),
    margin: t.int({ required: false, description: 'Quiet zone in modules, 2 to 16.' }),
  }),
});

const DeleteCodePayload = builder.objectRef<{ deletedId: string }>('DeleteCodePayload').implement({
  fields: (t) => ({ deletedId: t.exposeID('deletedId') }),
});

export const CreateCodeInputRef = builder.inputType('CreateCodeInput', {
  fields: (t) => ({
    type: t.field({ type: CodeTypeEnum, required: false, description: "Defaults to 'url'." }),
    content: t.field({ type: 'JSON', required: true, description: 'A URL for url codes, an object for static types.' }),
    forwardQuery: t.boolean({
      required: false,
      description: 'Url codes: append the scan URL’s query string to the destination (UTM passthrough). Default false.',
    }),
    slug: t.string({
      required: false,
      description:
        'A custom slug (url codes): 3-64 of A-Z a-z 0-9 _ -, case-sensitive; taken ever before (on the same domain) ' +
        'is a CONFLICT. Random when left out.',
    }),
    domain: t.string({
      required: false,
      description:
        'One of the account’s verified domains (url codes): the scan URL is https://<domain>/<slug>. The service’s ' +
        'own when left out.',
    }),
    name: t.string({ required: false, description: 'A title for people (not unique), 1-200 characters.' }),
    notes: t.string({ required: false, description: 'Free text, up to 10,000 characters.' }),
    tags: t.stringList({
      required: false,
      description:
        'Tag names (0-20); a name the account has no tag for creates it, an existing tag matches ignoring case.',
    }),
    ...lifecycleInputFields(t),
    design: t.field({ type: DesignInput, required: false }),
    routing: t.field({ type: RoutingInputRef, required: false }),
  }),
});

const UpdateCodeInput = builder.inputType('UpdateCodeInput', {
  fields: (t) => ({
    content: t.field({
      type: 'JSON',
      required: false,
      description: 'New URL of a url code, or new content of a static code.',
    }),
    forwardQuery: t.boolean({ required: false }),
    slug: t.string({
      required: false,
      description: 'A new slug (url codes): the scan URL and image change, and the old slug is retired for good.',
    }),
    domain: t.string({
      required: false,
      description:
        'Another verified domain of the account (url codes), or null for the service’s own: the scan URL and image ' +
        'change, and the slug is retired on the old domain.',
    }),
    name: t.string({ required: false, description: 'A new title; null removes it.' }),
    notes: t.string({ required: false, description: 'New notes; null removes them.' }),
    tags: t.stringList({
      required: false,
      description: 'The code’s tags from now on (replacing its old ones); [] removes them all.',
    }),
    ...lifecycleInputFields(t),
    design: t.field({ type: DesignInput, required: false }),
    routing: t.field({ type: RoutingInputRef, required: false }),
  }),
});

const CodeFilter = builder.inputType('CodeFilter', {
  fields: (t) => ({
    type: t.field({ type: CodeTypeEnum, required: false }),
    q: t.string({ required: false, description: 'Substring of the content or the name, in any case.' }),
    tags: t.stringList({
      required: false,
      description: 'Codes carrying any of these tags (names, case ignored); an unknown name matches nothing.',
    }),
    status: t.field({
      type: [CodeStatusEnum],
      required: false,
      description:
        'Only codes with these statuses; default ACTIVE and PAUSED (archived codes are hidden unless asked for).',
    }),
    createdAfter: t.field({ type: 'DateTime', required: false }),
    createdBefore: t.field({ type: 'DateTime', required: false }),
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
const NULL_CLEARS_ON_UPDATE = ['name', 'notes', 'domain', ...LIFECYCLE_NULL_CLEARS];

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
  const { design, routing, ...fields } = input;
  return {
    ...snakeKeys(fields, nullClears),
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
      const filter = args.filter ?? {};
      const query = parseInput(
        listCodesSchema,
        compact({
          limit: args.first ?? undefined,
          cursor: args.after ?? undefined,
          sort: args.sort ?? undefined,
          type: filter.type,
          q: filter.q,
          tag: filter.tags?.length ? filter.tags : undefined,
          status: filter.status ?? undefined,
          created_after: filter.createdAfter?.toISOString(),
          created_before: filter.createdBefore?.toISOString(),
        }),
      );
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
