// What one GraphQL request may ask for: a document the parser can take, depth (graphql-armor),
// cost and points (cost.ts, cost-limit.ts, which also charges the key's rate limit the
// operation's points), introspection (off in production unless enabled: introspection.ts), a few
// root fields per mutation, one image preview and a few analytics per operation, and the bulk rate
// limit for the bulk mutations.
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import {
  GraphQLError,
  Kind,
  getOperationAST,
  type DocumentNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { rateLimitSubject } from '../shared/principal.ts';
import type { RateLimits } from '../shared/rate-limiter.ts';
import type { GraphQLContext } from './context.ts';
import { costLimit, rateLimitedError } from './cost-limit.ts';
import { introspectionOff } from './introspection.ts';

declare module './context.ts' {
  interface GraphQLServices {
    /** The bulk mutations count against the key's bulk limit. */
    rateLimits: RateLimits;
  }
}

/**
 * Root fields one mutation may hold. Aliases would otherwise let one request (one call against
 * the rate limit) create thousands of codes one by one; bulkCreateCodes is the way to many.
 */
export const MAX_MUTATION_FIELDS = 20;

/**
 * The parser (and every later pass) recurses per bracket: a few thousand nested `[` in an
 * argument overflow the stack. No real document nests half this deep (GraphiQL's introspection
 * query: 12). Big inputs belong in variables, which are JSON and limited by the HTTP edge.
 */
export const MAX_DOCUMENT_NESTING = 64;
export const MAX_DOCUMENT_TOKENS = 50_000;

/** True when `{ [ (` nest deeper than `max` outside strings and comments: one linear scan. */
export function nestingExceeds(source: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 0x23) {
      // # comment, to the end of the line
      while (i < source.length && source.charCodeAt(i) !== 0x0a && source.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x22 && source.startsWith('"""', i)) {
      // block string; only \""" escapes inside it
      let end = source.indexOf('"""', i + 3);
      while (end !== -1 && source.charCodeAt(end - 1) === 0x5c) end = source.indexOf('"""', end + 3);
      if (end === -1) return false;
      i = end + 2;
    } else if (c === 0x22) {
      // "string": ends at the next unescaped quote (or a line break, which the lexer refuses)
      for (i++; i < source.length; i++) {
        const d = source.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22 || d === 0x0a || d === 0x0d) break;
      }
    } else if (c === 0x7b || c === 0x5b || c === 0x28) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d || c === 0x29) depth--;
  }
  return false;
}

/** Refuses documents nested too deeply for the parser, and caps their tokens. */
const parserGuard: Plugin = {
  onParse({ parseFn, setParseFn }) {
    setParseFn((source, options) => {
      const text = typeof source === 'string' ? source : source.body;
      if (nestingExceeds(text, MAX_DOCUMENT_NESTING)) {
        throw new GraphQLError(`Syntax Error: the document nests brackets deeper than ${MAX_DOCUMENT_NESTING} levels.`);
      }
      return parseFn(source, { ...options, maxTokens: MAX_DOCUMENT_TOKENS });
    });
  },
};

export interface GraphQLLimits {
  maxDepth: number;
  maxCost: number;
  maxPoints: number;
  introspection: boolean;
}

/** Names of the operation's root fields, through fragments (aliases do not hide a field's name). */
function rootFieldNames(
  selectionSet: SelectionSetNode,
  fragment: (name: string) => FragmentDefinitionNode | undefined | null,
): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) names.push(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const definition = fragment(selection.name.value);
        if (definition) visit(definition.selectionSet);
      }
    }
  };
  visit(selectionSet);
  return names;
}

const mutationFieldLimit: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (node.operation !== 'mutation') return;
    const count = rootFieldNames(node.selectionSet, (name) => context.getFragment(name)).length;
    if (count > MAX_MUTATION_FIELDS) {
      context.reportError(
        new GraphQLError(
          `A mutation may hold at most ${MAX_MUTATION_FIELDS} fields (found ${count}); use bulkCreateCodes for many ` +
            `codes.`,
          { nodes: [node] },
        ),
      );
    }
  },
});

/**
 * Root query fields an operation may hold only a few of. previewCode draws (and decodes) an
 * image and may fetch a logo; the analytics fields each read rollups for a whole account (the
 * dashboard's page asks for one of each). Aliases would otherwise make one request a thousand;
 * their points would refuse that too, but only where the rate limit is on.
 */
export const MAX_ANALYTICS_FIELDS = 5;
const ROOT_FIELD_CAPS = [
  { fields: ['previewCode'], max: 1, what: 'previewCode' },
  {
    fields: ['analyticsOverview', 'analyticsWeekdayHours'],
    max: MAX_ANALYTICS_FIELDS,
    what: 'analyticsOverview and analyticsWeekdayHours together',
  },
];

const expensiveFieldLimit: ValidationRule = (context) => ({
  OperationDefinition(node) {
    const names = rootFieldNames(node.selectionSet, (name) => context.getFragment(name));
    for (const { fields, max, what } of ROOT_FIELD_CAPS) {
      const count = names.filter((name) => fields.includes(name)).length;
      if (count > max)
        context.reportError(
          new GraphQLError(
            max === 1
              ? `An operation may hold ${what} once (found ${count}).`
              : `An operation may hold ${what} at most ${max} times (found ${count}).`,
            { nodes: [node] },
          ),
        );
    }
  },
});

/** Root fields that each count as one bulk call (as POST /v1/codes/bulk and POST /v1/imports do). */
const BULK_FIELDS = new Set(['bulkCreateCodes', 'bulkCreateCodesFromCsv', 'importCodes']);

function bulkCalls(document: DocumentNode, operationName: string | null | undefined): number {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== 'mutation') return 0;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  return rootFieldNames(operation.selectionSet, (name) => fragments.get(name)).filter((name) => BULK_FIELDS.has(name))
    .length;
}

/** Each bulk field is one bulk call against the key's bulk limit (as POST /codes/bulk is). */
const bulkRateLimit: Plugin<GraphQLContext> = {
  async onExecute({ args, setResultAndStopExecution }) {
    const context = args.contextValue as GraphQLContext;
    const limit = context.services?.rateLimits.bulk;
    if (!limit || !context.principal) return;
    const calls = bulkCalls(args.document, args.operationName);
    if (calls === 0) return;
    const state = await limit.take(rateLimitSubject(context.principal), calls);
    if (!state || state.allowed) return;
    setResultAndStopExecution({
      errors: [rateLimitedError(`This API key made more than ${state.limit} bulk calls in a minute.`, state)],
    });
  },
};

/** graphql-armor throws by default, and yoga then leaves out the code it gives validation errors. */
const reportedAsValidationErrors = {
  propagateOnRejection: false,
  onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
};

export function limitPlugins({ maxDepth, maxCost, maxPoints, introspection }: GraphQLLimits): Plugin[] {
  const plugins: Plugin[] = [
    parserGuard,
    // Introspection (__schema) is not counted by either: GraphiQL's own query is deeper than any
    // real one. It is off in production unless GRAPHQL_INTROSPECTION=true.
    maxDepthPlugin({ n: maxDepth, ignoreIntrospection: true, ...reportedAsValidationErrors }) as Plugin,
    costLimit(maxCost, maxPoints) as Plugin,
    {
      onValidate: ({ addValidationRule }) => {
        addValidationRule(mutationFieldLimit);
        addValidationRule(expensiveFieldLimit);
      },
    },
    bulkRateLimit as Plugin,
  ];
  if (!introspection) plugins.push(introspectionOff);
  return plugins;
}
