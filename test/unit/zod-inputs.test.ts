// Input object types derived from zod objects (graphql/zod-inputs.ts): a small schema printed as
// SDL shows the camelCase names, the scalar, enum, list and nested types, required-ness, and
// where descriptions come from. This file's builder holds only the types built here.
import { printType } from 'graphql';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { builder } from '../../src/graphql/builder.ts';
import { enumOf } from '../../src/graphql/enums.ts';
import '../../src/graphql/scalars.ts';
import { zodInputType } from '../../src/graphql/zod-inputs.ts';

const shadeSchema = z.enum(['light', 'dark']);
enumOf('Shade', shadeSchema);

const pointSchema = z.strictObject({ x: z.number(), y: z.number().optional() });
const PointInput = zodInputType('PointInput', pointSchema);

const sketchSchema = z
  .strictObject({
    title: z
      .string()
      .transform((value) => value.trim())
      .describe('What the sketch shows.'),
    stroke_width: z.number().int().min(1).default(1),
    shade: shadeSchema.meta({ description: 'REST’s words for the shade.' }).optional(),
    shades: z.array(shadeSchema).nullable().optional(),
    events: z.array(z.enum(['sketch.drawn', 'sketch.erased'])),
    visible: z.boolean(),
    due_at: z.iso
      .datetime()
      .transform((value) => new Date(value))
      .optional(),
    seen_at: z.iso.datetime().optional(),
    origin: pointSchema,
    path: z.array(pointSchema).optional(),
    extra: z.unknown(),
    labels: z.record(z.string(), z.string()).optional(),
    internal: z.string(),
  })
  .refine(() => true);

const SketchInput = zodInputType('SketchInput', sketchSchema, {
  description: 'A sketch.',
  omit: ['internal'],
  types: { origin: PointInput, path: [PointInput], labels: 'JSON' },
  descriptions: { shade: 'Light or dark.' },
  fields: (t) => ({ id: t.id({ required: false, description: 'Added by GraphQL.' }) }),
});

const QuietInput = zodInputType('QuietInput', z.strictObject({ a: z.string().describe('REST only.') }), {
  zodDescriptions: false,
});

builder.queryField('quiet', (t) => t.string({ args: { input: t.arg({ type: QuietInput }) }, resolve: () => '' }));
builder.queryField('sketch', (t) =>
  t.string({
    args: { input: t.arg({ type: SketchInput, required: true }) },
    // The shape resolvers receive (checked by the compiler): camelCase names, Dates for DateTime,
    // the named types' shapes, null where the field is optional.
    resolve: (_root, { input }) => {
      expectTypeOf(input.title).toEqualTypeOf<string>();
      expectTypeOf(input.strokeWidth).toEqualTypeOf<number | null | undefined>();
      expectTypeOf(input.dueAt).toEqualTypeOf<Date | null | undefined>();
      expectTypeOf(input.seenAt).toEqualTypeOf<string | null | undefined>();
      expectTypeOf(input.shades).toEqualTypeOf<string[] | null | undefined>();
      expectTypeOf(input.events).toEqualTypeOf<string[]>();
      expectTypeOf(input.origin).toEqualTypeOf<{ x: number; y?: number | null | undefined }>();
      expectTypeOf(input.extra).toEqualTypeOf<unknown>();
      return input.title;
    },
  }),
);

const schema = builder.toSchema();

describe('zodInputType', () => {
  it('derives the fields, their types and required-ness from the zod object', () => {
    expect(printType(schema.getType('SketchInput')!)).toBe(
      [
        '"""A sketch."""',
        'input SketchInput {',
        '  dueAt: DateTime',
        '  events: [String!]!',
        '  extra: JSON!',
        '',
        '  """Added by GraphQL."""',
        '  id: ID',
        '  labels: JSON',
        '  origin: PointInput!',
        '  path: [PointInput!]',
        '  seenAt: String',
        '',
        '  """Light or dark."""',
        '  shade: Shade',
        '  shades: [Shade!]',
        '  strokeWidth: Int',
        '',
        '  """What the sketch shows."""',
        '  title: String!',
        '  visible: Boolean!',
        '}',
      ].join('\n'),
    );
    expect(printType(schema.getType('PointInput')!)).toBe('input PointInput {\n  x: Float!\n  y: Float\n}');
  });

  it('leaves the zod descriptions out when told to', () => {
    expect(printType(schema.getType('QuietInput')!)).toBe('input QuietInput {\n  a: String!\n}');
  });

  // Once the schema is built, the builder derives the fields of a new input type at once.
  it('refuses a zod enum of GraphQL names that has no GraphQL enum, and a field it cannot type', () => {
    expect(() => zodInputType('LooseInput', z.strictObject({ size: z.enum(['S', 'M']) }))).toThrow(
      'LooseInput.size: derive the GraphQL enum of S, M with enumOf',
    );
    expect(() => zodInputType('NestedInput', z.strictObject({ inner: z.strictObject({}) }))).toThrow(
      'NestedInput.inner: a zod object has no GraphQL type of its own',
    );
  });

  it('refuses options that name no field of the schema', () => {
    expect(() =>
      zodInputType('TypoInput', z.strictObject({ a: z.string() }), { descriptions: { b: 'There is no b.' } as never }),
    ).toThrow('TypoInput.b: no such field in the zod schema');
  });
});
