// Imports each module's GraphQL types (for their side effects on the builder), then builds.
// Importing this opens no database connection.
import { lexicographicSortSchema } from 'graphql';
import { builder } from '../graphql/builder.ts';
import '../graphql/scalars.ts';
import '../graphql/rate-limit-field.ts';
import '../modules/routing/graphql.ts';
import '../modules/tags/graphql.ts';
import '../modules/codes/graphql.ts';
import '../modules/images/graphql.ts';
import '../modules/domains/graphql.ts';
import '../modules/utm-templates/graphql.ts';
import '../modules/bulk/graphql.ts';
import '../modules/imports/graphql.ts';
import '../modules/analytics/graphql.ts';
import '../modules/webhooks/graphql.ts';
import '../modules/oauth/graphql.ts';
import '../modules/audit/graphql.ts';
import '../modules/workspaces/graphql.ts';

export const schema = lexicographicSortSchema(builder.toSchema());
