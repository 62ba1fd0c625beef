// DomainErrors become GraphQL errors with the same code; anything else is logged and masked.
import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import { databaseRefusal } from '../db/dialect.ts';
import { DomainError } from '../shared/errors.ts';

const snakeToCamel = (path: string) => path.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

export function createMaskError(logger: Logger) {
  return (error: unknown, message: string): Error => {
    const thrown = error instanceof GraphQLError ? error.originalError : error;
    const original = databaseRefusal(thrown) ?? thrown;
    if (original instanceof DomainError) {
      const gqlError = error instanceof GraphQLError ? error : undefined;
      return new GraphQLError(original.message, {
        nodes: gqlError?.nodes,
        path: gqlError?.path,
        extensions: {
          code: original.kind.toUpperCase(),
          status: original.status,
          ...(original.retryAfterSeconds !== undefined && { retryAfter: original.retryAfterSeconds }),
          // Paths use the GraphQL input's field names.
          ...(original.fieldErrors && {
            errors: original.fieldErrors.map((e) => ({ path: snakeToCamel(e.path), message: e.message })),
          }),
        },
      });
    }
    // Errors of GraphQL itself (syntax, unknown field, wrong argument type) are safe to show;
    // one without a code is about the variables (missing, null, of the wrong type; graphql-js
    // wraps its own GraphQLError for the latter): the caller's mistake, a bad request.
    if (error instanceof GraphQLError && (!error.originalError || original instanceof GraphQLError)) {
      if (!error.originalError && typeof error.extensions.code === 'string') return error;
      return new GraphQLError(error.message, {
        nodes: error.nodes,
        extensions: { ...error.extensions, code: 'BAD_REQUEST', status: 400 },
      });
    }
    logger.error({ err: original }, 'unhandled error in a GraphQL resolver');
    return new GraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  };
}
