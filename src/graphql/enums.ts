// GraphQL enums derived from the zod enums the REST contract uses, so the two transports name
// the same values and the schema shows every closed set. The values go over the wire as they
// are, so they must be GraphQL names (letters, digits, _); sets whose values are not (event
// types like `scan.created`, scopes like `codes:read`) stay strings.
import type { EnumRef } from '@pothos/core';
import type { z } from 'zod';
import { builder } from './builder.ts';

/** The GraphQL enum of each zod enum, for the inputs derived from zod objects (zod-inputs.ts). */
const derived = new WeakMap<z.core.$ZodType, EnumRef<typeof builder.$inferSchemaTypes, string>>();

/** The enum `name` of a zod enum's values, described by `description` or the schema's own. */
export function enumOf<const V extends string>(name: string, schema: z.ZodEnum<{ [K in V]: K }>, description?: string) {
  const ref = builder.enumType(name, {
    values: schema.options as readonly V[],
    description: description ?? (schema.meta()?.description as string | undefined),
  });
  derived.set(schema, ref);
  return ref;
}

/**
 * The GraphQL enum derived from a zod enum, or from the enum it was copied from: `.meta()` and
 * `.describe()` return a copy whose `parent` is the original.
 */
export function derivedEnum(schema: z.core.$ZodType) {
  for (let s: z.core.$ZodType | undefined = schema; s; s = s._zod.parent) {
    const ref = derived.get(s);
    if (ref) return ref;
  }
  return undefined;
}
