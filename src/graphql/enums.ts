// GraphQL enums derived from the zod enums the REST contract uses, so the two transports name
// the same values and the schema shows every closed set. The values go over the wire as they
// are, so they must be GraphQL names (letters, digits, _); sets whose values are not (event
// types like `scan.created`, scopes like `codes:read`) stay strings.
import type { z } from 'zod';
import { builder } from './builder.ts';

/** The enum `name` of a zod enum's values, described by `description` or the schema's own. */
export function enumOf<const V extends string>(name: string, schema: z.ZodEnum<{ [K in V]: K }>, description?: string) {
  return builder.enumType(name, {
    values: schema.options as readonly V[],
    description: description ?? (schema.meta()?.description as string | undefined),
  });
}
