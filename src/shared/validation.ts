// Turns zod failures into our validation DomainError, so both transports report them alike.
import type { z } from 'zod';
import { validationFailed, type FieldError } from './errors.ts';

export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationFailed(zodIssuesToFieldErrors(result.error.issues));
}

export function zodIssuesToFieldErrors(issues: z.core.$ZodIssue[]): FieldError[] {
  return issues.flatMap((issue) => {
    const base = issue.path.map(String);
    // An unknown key is reported at the key itself, which is where the user has to look.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: [...base, key].join('.'),
        message: `unknown field '${key}'`,
      }));
    }
    return [{ path: base.join('.'), message: issue.message }];
  });
}
