// What an operation costs, counted before it runs, with the variables it came with. Two
// numbers, as GitHub's API has a node limit and rate-limit points:
// - `cost` bounds the size of the answer: a list counts once per item it may return (its
//   `first`/`last`), so `svg` inside `codes(first: 500)` costs 500 renders, not one
//   (graphql-armor's cost limit counted each field once, which let one request ask for 28,000
//   renders);
// - `points` price the work, in plain API calls, and are what the key's rate limit is charged:
//   a root field 1, a field that declares `points(n)` n per item (analytics, renders, a query
//   per item in a list), a batched field (one query per request) n once.
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
/** What a root field without a price of its own costs: one call, as one REST call. */
const ROOT_POINTS = 1;

/**
 * A field's rate-limit price, in plain API calls, declared on the field (Pothos `extensions`):
 * `n` per item it is resolved for, or with `once`, n per request (a DataLoader answers every
 * item with one query).
 */
export const points = (n: number, { once = false } = {}) => ({ points: n, ...(once ? { pointsOnce: true } : {}) });

function pointsOf(field: GraphQLField<unknown, unknown>, isRoot: boolean): { each: number; once: number } {
  const price = field.extensions['points'];
  const n = typeof price === 'number' ? price : isRoot ? ROOT_POINTS : 0;
  return field.extensions['pointsOnce'] === true ? { each: 0, once: n } : { each: n, once: 0 };
}

/** `cost` and `each` per item of the parent; `once` per request, whatever the lists around it. */
interface Tally {
  cost: number;
  each: number;
  once: number;
}

const add = (a: Tally, b: Tally, times = 1): Tally => ({
  cost: a.cost + b.cost * times,
  each: a.each + b.each * times,
  once: a.once + b.once,
});
const NOTHING: Tally = { cost: 0, each: 0, once: 0 };

interface Walk {
  schema: GraphQLSchema;
  root: GraphQLCompositeType;
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

function costOf(selectionSet: SelectionSetNode, parent: GraphQLCompositeType, walk: Walk): Tally {
  let total = NOTHING;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition ? walk.schema.getType(selection.typeCondition.name.value) : parent;
      if (type && (isObjectType(type) || isInterfaceType(type)))
        total = add(total, costOf(selection.selectionSet, type, walk));
      continue;
    }
    if (selection.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = walk.fragments.get(selection.name.value);
      const type = fragment && walk.schema.getType(fragment.typeCondition.name.value);
      if (fragment && type && (isObjectType(type) || isInterfaceType(type)))
        total = add(total, costOf(fragment.selectionSet, type, walk));
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
        : NOTHING;
    const items = itemsOf(field, argumentsOf(field, selection, walk.variables));
    // The field's own work is done once per parent item; what it returns, once per item of its page.
    const { each, once } = pointsOf(field, parent === walk.root);
    total = add(total, add({ cost: own * items, each, once }, children, items));
  }
  return total;
}

const isUnionLike = (type: GraphQLCompositeType): type is Exclude<GraphQLCompositeType, { getFields: unknown }> =>
  !('getFields' in type);

export interface OperationCost {
  /** The size of the answer, limited by GRAPHQL_MAX_COST. */
  cost: number;
  /** The work, in plain API calls, charged to the key's rate limit: at least 1, as any call. */
  points: number;
}

/** The cost of the operation `args` would run; nothing when there is no such operation (execution says why). */
export function operationCost(
  args: Pick<ExecutionArgs, 'schema' | 'document' | 'operationName' | 'variableValues'>,
): OperationCost {
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
  if (!operation || !root) return { cost: 0, points: ROOT_POINTS };
  const tally = costOf(operation.selectionSet, root, {
    schema: args.schema,
    root,
    fragments,
    variables: (args.variableValues ?? {}) as Record<string, unknown>,
  });
  return { cost: tally.cost, points: Math.max(ROOT_POINTS, tally.each + tally.once) };
}

/** The refusal of an operation over the limit: a validation error, as graphql-armor's was. */
export function costLimitError(cost: number, maxCost: number): GraphQLError {
  return new GraphQLError(
    `Query Cost limit of ${maxCost} exceeded, found ${cost}. Lists count once per item they may return ` +
      `(first/last), and each image (svg, previewCode) counts ${RENDER_COST}.`,
    { extensions: { code: 'GRAPHQL_VALIDATION_FAILED', http: { status: 400 } } },
  );
}
