// What an operation costs, counted before it runs, with the variables it came with: a list
// counts once per item it may return (its `first`/`last`), so `svg` inside `codes(first: 500)`
// costs 500 renders, not one. graphql-armor's cost limit counts each field once, whatever the
// list size, which let one request ask for 28,000 renders.
import {
  getArgumentValues,
  getNamedType,
  GraphQLError,
  isInterfaceType,
  isObjectType,
  Kind,
  type ExecutionArgs,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';

/** An object (or interface) field; armor's default, kept so the limit means what it meant. */
const OBJECT_COST = 2;
const SCALAR_COST = 1;
/** Fields that draw an image on the render threads. */
export const RENDER_COST = 250;
const RENDER_FIELDS = new Set(['Code.svg', 'Query.previewCode']);
/** The page size a paginated field answers with when it is not given one. */
const DEFAULT_PAGE = 50;
const PAGE_ARGUMENTS = ['first', 'last', 'limit', 'top'] as const;

interface Walk {
  schema: GraphQLSchema;
  fragments: Map<string, FragmentDefinitionNode>;
  variables: Record<string, unknown>;
}

/** How many items a field may return: its page argument, the default page, or 1 for anything else. */
function itemsOf(field: GraphQLField<unknown, unknown>, args: Record<string, unknown>): number {
  const paginated = field.args.filter((arg) => (PAGE_ARGUMENTS as readonly string[]).includes(arg.name));
  if (paginated.length === 0) return 1;
  const sizes = paginated.map((arg) => args[arg.name]).filter((value): value is number => typeof value === 'number');
  return sizes.length > 0 ? Math.max(1, ...sizes) : DEFAULT_PAGE;
}

function argumentsOf(
  field: GraphQLField<unknown, unknown>,
  node: Parameters<typeof getArgumentValues>[1],
  variables: Record<string, unknown>,
) {
  try {
    return getArgumentValues(field, node, variables);
  } catch {
    // Bad arguments are execution's to report; count the field as unpaged.
    return {};
  }
}

function costOf(selectionSet: SelectionSetNode, parent: GraphQLCompositeType, walk: Walk): number {
  let total = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition ? walk.schema.getType(selection.typeCondition.name.value) : parent;
      if (type && (isObjectType(type) || isInterfaceType(type))) total += costOf(selection.selectionSet, type, walk);
      continue;
    }
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = walk.fragments.get(selection.name.value);
      const type = fragment && walk.schema.getType(fragment.typeCondition.name.value);
      if (fragment && type && (isObjectType(type) || isInterfaceType(type)))
        total += costOf(fragment.selectionSet, type, walk);
      continue;
    }
    if (selection.name.value.startsWith('__') || isUnionLike(parent)) continue;
    const field = parent.getFields()[selection.name.value];
    if (!field) continue;
    const named = getNamedType(field.type);
    const own = RENDER_FIELDS.has(`${parent.name}.${field.name}`)
      ? RENDER_COST
      : isObjectType(named) || isInterfaceType(named)
        ? OBJECT_COST
        : SCALAR_COST;
    const children =
      selection.selectionSet && (isObjectType(named) || isInterfaceType(named))
        ? costOf(selection.selectionSet, named, walk)
        : 0;
    total += (own + children) * itemsOf(field, argumentsOf(field, selection, walk.variables));
  }
  return total;
}

const isUnionLike = (type: GraphQLCompositeType): type is Exclude<GraphQLCompositeType, { getFields: unknown }> =>
  !('getFields' in type);

/** The cost of the operation `args` would run; 0 when there is no such operation (execution says why). */
export function operationCost(
  args: Pick<ExecutionArgs, 'schema' | 'document' | 'operationName' | 'variableValues'>,
): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  const operations = [];
  for (const definition of args.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
  }
  const operation = args.operationName
    ? operations.find((op) => op.name?.value === args.operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
  const root = operation && args.schema.getRootType(operation.operation);
  if (!operation || !root) return 0;
  return costOf(operation.selectionSet, root, {
    schema: args.schema,
    fragments,
    variables: (args.variableValues ?? {}) as Record<string, unknown>,
  });
}

/** The refusal of an operation over the limit: a validation error, as graphql-armor's was. */
export function costLimitError(cost: number, maxCost: number): GraphQLError {
  return new GraphQLError(
    `Query Cost limit of ${maxCost} exceeded, found ${cost}. Lists count once per item they may return ` +
      `(first/last), and each image (svg, previewCode) counts ${RENDER_COST}.`,
    { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } } },
  );
}
