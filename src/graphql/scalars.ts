import { GraphQLError } from 'graphql';
import { builder } from './builder.ts';

builder.scalarType('DateTime', {
  description: 'An instant as an ISO 8601 string in UTC, e.g. 2026-11-22T18:00:00.000Z.',
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = typeof value === 'string' ? new Date(value) : new Date(NaN);
    if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO 8601 string.');
    return date;
  },
});

builder.scalarType('JSON', {
  description: "Any JSON value: a string (the URL of a url code) or an object (a static code's content).",
  serialize: (value) => value,
  parseValue: (value) => value,
});
