// Introspection off (production unless GRAPHQL_INTROSPECTION=true): the schema tells nothing
// about itself. `__schema` is a validation error. `__type(name:)` is answered null for every
// name, as if no type had it, and is never resolved, so neither its answer nor the work of a
// deep selection under it is left to anyone; a query that asks for a type stays a valid query
// (the GraphQL-over-HTTP conformance audits send one to test variables). `__typename` works.
import { GraphQLError, Kind, visit, type DocumentNode, type ValidationRule } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

const noSchemaField: ValidationRule = (context) => ({
  Field(node) {
    if (node.name.value !== '__schema') return;
    context.reportError(
      new GraphQLError(
        'GraphQL introspection has been disabled, but the requested query contained the field "__schema".',
        {
          nodes: node,
        },
      ),
    );
  },
});

interface Rewritten {
  document: DocumentNode;
  /** Response keys of the `__type` fields, at the query's root (the only place the field exists). */
  keys: string[];
}

/** Each `__type` field becomes `__typename` under the same response key, whose value is then replaced. */
function withoutTypeLookups(document: DocumentNode): Rewritten {
  const keys: string[] = [];
  const rewritten = visit(document, {
    Field(node) {
      if (node.name.value !== '__type') return undefined;
      const key = node.alias?.value ?? node.name.value;
      keys.push(key);
      return {
        ...node,
        alias: { kind: Kind.NAME, value: key },
        name: { kind: Kind.NAME, value: '__typename' },
        arguments: [],
        selectionSet: undefined,
      };
    },
  });
  return { document: rewritten, keys };
}

/** yoga caches parsed documents, so each is rewritten once. */
const rewrites = new WeakMap<DocumentNode, Rewritten>();

export const introspectionOff: Plugin = {
  onValidate: ({ addValidationRule }) => addValidationRule(noSchemaField),
  onExecute({ args, executeFn, setExecuteFn }) {
    let rewrite = rewrites.get(args.document);
    if (!rewrite) rewrites.set(args.document, (rewrite = withoutTypeLookups(args.document)));
    const { document, keys } = rewrite;
    if (keys.length === 0) return;
    setExecuteFn((executionArgs) => executeFn({ ...executionArgs, document }));
    return {
      onExecuteDone({ result, setResult }) {
        if (isAsyncIterable(result) || !result.data) return;
        const data = { ...result.data };
        for (const key of keys) if (key in data) data[key] = null;
        setResult({ ...result, data });
      },
    };
  },
};
