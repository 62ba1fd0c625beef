// GraphQL input object types derived from the zod objects REST's bodies are parsed with, so the
// two transports take the same fields and the schema shows every enum. Each zod key becomes a
// camelCase field (`fg_color` -> `fgColor`; snakeKeys in inputs.ts turns it back), typed from the
// zod type and required unless the zod field is optional, nullable or has a default. The types
// only shape what arrives: resolvers still parse it with the same zod schema.
import type { InputFieldBuilder, InputFieldMap, InputFieldRef, InputShape, InputTypeParam } from '@pothos/core';
import { z } from 'zod';
import { builder, type BuilderTypes } from './builder.ts';
import { derivedEnum } from './enums.ts';

type Types = BuilderTypes;

/** The wrappers that make a zod field optional to send. */
type Optional = z.ZodOptional<z.core.$ZodType> | z.ZodNullable<z.core.$ZodType> | z.ZodDefault<z.core.$ZodType>;

/** `fg_color` -> `fgColor`. */
type Camel<K extends string> = K extends `${infer H}_${infer T}` ? `${H}${Capitalize<Camel<T>>}` : K;
const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** What a resolver receives for a zod type: the TypeScript side of graphqlType below. */
type ShapeOf<S> = S extends Optional
  ? ShapeOf<S['_zod']['def']['innerType']>
  : S extends z.ZodPipe<infer In, infer Out>
    ? In extends z.ZodTransform
      ? ShapeOf<Out>
      : In extends z.ZodISODateTime
        ? Date
        : ShapeOf<In>
    : S extends z.ZodArray<infer Item>
      ? ShapeOf<Item>[]
      : S extends z.ZodNumber
        ? number
        : S extends z.ZodBoolean
          ? boolean
          : S extends z.ZodUnknown
            ? unknown
            : S extends z.ZodUnion<infer Options>
              ? ShapeOf<Options[number]>
              : S extends z.ZodString | z.ZodStringFormat | z.ZodEnum
                ? string
                : never;

/** What a resolver receives for a GraphQL type the caller named. */
type GivenShape<P> = P extends readonly [infer Item] ? InputShape<Types, Item>[] : InputShape<Types, P>;

type FieldShape<S, Name extends string, Given> =
  (Name extends keyof Given ? GivenShape<Given[Name]> : ShapeOf<S>) | (S extends Optional ? null | undefined : never);

type Derived<Shape extends z.core.$ZodShape, Omitted extends keyof Shape, Given> = {
  [K in Exclude<keyof Shape & string, Omitted> as Camel<K>]: InputFieldRef<
    Types,
    FieldShape<Shape[K], Camel<K>, Given>
  >;
};

type FieldName<Shape extends z.core.$ZodShape, Omitted extends keyof Shape> = Camel<
  Exclude<keyof Shape & string, Omitted>
>;

export interface ZodInputOptions<
  Shape extends z.core.$ZodShape,
  Omitted extends keyof Shape & string,
  Given,
  Extra extends InputFieldMap,
> {
  /** The input type's own description. */
  description?: string;
  /** Zod fields this input does not take (say why at the call). */
  omit?: readonly Omitted[];
  /**
   * GraphQL types the zod type does not give, by field: nested input objects, a record as a list
   * of pairs, IDs, an enum whose GraphQL names differ from its values.
   */
  types?: Given;
  /** Field descriptions by GraphQL name; they win over the zod schema's. */
  descriptions?: Partial<Record<FieldName<Shape, Omitted>, string>>;
  /** false: only `descriptions` describe the fields, where the zod schema's speak REST (snake_case, paths). */
  zodDescriptions?: false;
  /** Fields GraphQL adds, or takes differently from REST (say why at the call). */
  fields?: (t: InputFieldBuilder<Types, 'InputObject'>) => Extra;
}

/** The input object `name` with the fields of `schema`, shaped as the options say. */
export function zodInputType<
  Shape extends z.core.$ZodShape,
  Omitted extends keyof Shape & string = never,
  Given extends Partial<Record<FieldName<Shape, Omitted>, InputTypeParam<Types>>> = Record<never, never>,
  Extra extends InputFieldMap = Record<never, never>,
>(
  name: string,
  schema: z.ZodObject<Shape, z.core.$ZodObjectConfig>,
  options: ZodInputOptions<Shape, Omitted, Given, Extra> = {},
) {
  type Fields = Omit<Derived<Shape, Omitted, Given>, keyof Extra> & Extra;
  return builder.inputType(name, {
    description: options.description,
    fields: (t) => ({ ...derivedFields(t, name, schema, options), ...options.fields?.(t) }) as Fields,
  });
}

function derivedFields(
  t: InputFieldBuilder<Types, 'InputObject'>,
  typeName: string,
  schema: z.ZodObject,
  options: {
    omit?: readonly string[];
    types?: Partial<Record<string, InputTypeParam<Types>>>;
    descriptions?: Partial<Record<string, string>>;
    zodDescriptions?: false;
  },
): InputFieldMap {
  const omitted = new Set<string>(options.omit);
  const entries = Object.entries(schema.shape).filter(([key]) => !omitted.has(key));
  const names = new Set(entries.map(([key]) => camel(key)));
  for (const name of [...Object.keys(options.types ?? {}), ...Object.keys(options.descriptions ?? {})]) {
    if (!names.has(name)) throw new Error(`${typeName}.${name}: no such field in the zod schema`);
  }
  return Object.fromEntries(
    entries.map(([key, field]) => {
      const name = camel(key);
      const description =
        options.descriptions?.[name] ?? (options.zodDescriptions === false ? undefined : zodDescription(field));
      const type = options.types?.[name] ?? graphqlType(field, `${typeName}.${name}`);
      // The type is only known at run time; zodInputType states the fields' shapes.
      return [name, t.field({ type, required: !isOptional(field), description } as never)];
    }),
  );
}

const isOptional = (schema: z.core.$ZodType): schema is Optional =>
  schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault;

/** GraphQL names are letters, digits and _; an enum of other values stays a String. */
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/**
 * The GraphQL type of a zod type. A date-time the schema turns into a Date is a DateTime; one it
 * keeps as text (rule conditions, a simulated scan's time) stays a String, as REST shows it.
 */
function graphqlType(schema: z.core.$ZodType, at: string): InputTypeParam<Types> {
  if (isOptional(schema)) return graphqlType(schema.unwrap(), at);
  if (schema instanceof z.ZodPipe) {
    // z.preprocess is a pipe from a transform: the type is what the transform hands on.
    if (schema.in instanceof z.ZodTransform) return graphqlType(schema.out, at);
    return schema.in instanceof z.ZodISODateTime ? 'DateTime' : graphqlType(schema.in, at);
  }
  if (schema instanceof z.ZodArray) {
    const item = graphqlType(schema.element, at);
    if (Array.isArray(item)) throw new Error(`${at}: a list of lists has no GraphQL input type`);
    return [item];
  }
  if (schema instanceof z.ZodString || schema instanceof z.ZodStringFormat) return 'String';
  if (schema instanceof z.ZodNumber) return schema.format?.includes('int') ? 'Int' : 'Float';
  if (schema instanceof z.ZodBoolean) return 'Boolean';
  if (schema instanceof z.ZodUnknown) return 'JSON';
  if (schema instanceof z.ZodEnum) {
    const ref = derivedEnum(schema);
    if (ref) return ref;
    if (!schema.options.every((value) => GRAPHQL_NAME.test(String(value)))) return 'String';
    throw new Error(`${at}: derive the GraphQL enum of ${schema.options.join(', ')} with enumOf, or name it in types`);
  }
  if (schema instanceof z.ZodUnion) {
    const types = new Set(schema.options.map((option) => graphqlType(option, at)));
    const [only] = types;
    if (types.size === 1 && typeof only === 'string') return only;
  }
  throw new Error(`${at}: a zod ${schema._zod.def.type} has no GraphQL type of its own; name one in types`);
}

/**
 * The zod field's description, from its own `.meta()`/`.describe()` or the optional type's
 * inside. A description beside an `id` is a named component's (RoutingInput, RuleConditions):
 * it describes the type, not the field.
 */
function zodDescription(schema: z.core.$ZodType): string | undefined {
  const meta = z.globalRegistry.get(schema);
  if (meta?.description && meta.id === undefined) return meta.description;
  return isOptional(schema) ? zodDescription(schema.unwrap()) : undefined;
}
