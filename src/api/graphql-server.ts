import { createYoga } from 'graphql-yoga';
import { renderGraphiQL } from '../http/graphiql.ts';
import type { Logger } from 'pino';
import type { GraphQLContext } from '../graphql/context.ts';
import { createMaskError } from '../graphql/errors.ts';
import { limitPlugins, type GraphQLLimits } from '../graphql/limits.ts';
import { schema } from './graphql-schema.ts';

export type Yoga = ReturnType<typeof createGraphQLServer>;

export function createGraphQLServer(options: { graphiql: boolean; logger: Logger; limits: GraphQLLimits }) {
  return createYoga<GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL's assets come from the installed package, not a CDN, so it works offline; served
    // as cached files under /graphql/assets (http/graphiql.ts).
    graphiql: options.graphiql ? { title: 'QR service GraphQL' } : false,
    renderGraphiQL,
    landingPage: false,
    // yoga would answer every Origin (with credentials); CORS is the app's, closed by default.
    cors: false,
    plugins: limitPlugins(options.limits),
    maskedErrors: { maskError: createMaskError(options.logger) },
    // Request logging is ours (one line per request); resolver failures are logged by maskError.
    logging: false,
  });
}
