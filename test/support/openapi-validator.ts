// An independent check of real answers against an OpenAPI 3.1 document, as a request-validating
// proxy or a generated client would read it: the operation found by method and path template,
// the path and query parameters of an answer the service served (a proxy would have refused the
// request otherwise), the status, the Content-Type, a JSON body against its schema and the headers
// against theirs. Ajv's JSON Schema 2020-12 (what OpenAPI 3.1 uses) in strict mode: an unknown
// keyword or format in the document throws instead of passing unchecked.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { TestResponse } from './app.ts';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

const METHODS = ['get', 'head', 'put', 'post', 'delete', 'patch'] as const;
const COMPONENT_SCHEMAS = '#/components/schemas/';
/** The schema resource the components are registered as; every schema $ref points into it. */
const COMPONENTS_ID = 'components';

interface Parameter {
  name: string;
  in: string;
  schema: Schema;
  style?: string;
  explode?: boolean;
}
interface Schema {
  type?: string;
  items?: Schema;
}
interface Response {
  content?: Record<string, { schema: object }>;
  headers?: Record<string, { required?: boolean; schema: Schema }>;
}

export interface Operation {
  operationId: string;
  tag: string;
  method: string;
  /** The path template as in the document, e.g. /codes/{id}. */
  template: string;
  /** Whether the path sits under the version (servers: /v1) or at the server's root. */
  versioned: boolean;
  /** Matches a concrete path; a named group per path parameter. */
  matcher: RegExp;
  pathParameters: Parameter[];
  queryParameters: Parameter[];
  responses: Record<string, Response>;
}

export interface OpenApiValidator {
  operations: readonly Operation[];
  /** The operation answering `method path` (the path as requested, with its version prefix), if any. */
  operationFor(method: string, path: string): Operation | undefined;
  /** Every way the answer departs from the operation's description; empty when it conforms. */
  mismatches(op: Operation, path: string, response: TestResponse): string[];
  /** Every way `value` departs from the component schema `name` (`Code`); throws for a name the document lacks. */
  schemaProblems(name: string, value: unknown): string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function templateMatcher(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? `(?<${part.slice(1, -1)}>[^/]+)` : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${source}$`);
}

/** A header's or query value's text as its schema's type: `Image-Width: 512` is the integer 512. */
function textValue(text: string, schema: Schema): unknown {
  const numeric = schema.type === 'integer' || schema.type === 'number';
  if (numeric && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (schema.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/**
 * A query parameter's occurrences as the value its schema describes, read by its style: `form`
 * exploded (OpenAPI's default) repeats the name per item, `form` with `explode: false` joins
 * the items with commas. Only arrays may take several items; `refused` says why the text cannot
 * be read as the parameter at all.
 */
function queryValue(parameter: Parameter, texts: string[]): { value: unknown } | { refused: string } {
  const style = parameter.style ?? 'form';
  if (style !== 'form') return { refused: `style ${style} is not one this validator reads` };
  const explode = parameter.explode ?? true;
  const { schema } = parameter;
  if (!explode && texts.length > 1) return { refused: 'repeated, but declared comma-separated (explode: false)' };
  const items = explode ? texts : texts[0]!.split(',');
  const item = schema.items ?? schema;
  if (schema.type === 'array') return { value: items.map((text) => textValue(text, item)) };
  if (!explode && items.length > 1) return { refused: 'a list, but its schema is no array' };
  // A schema that admits a scalar or an array (anyOf) gets the array when the name is repeated.
  return { value: items.length === 1 ? textValue(items[0]!, schema) : items.map((text) => textValue(text, item)) };
}

/** Prepares the checks of one document (as served: plain JSON). */
export function createOpenApiValidator(served: unknown, version: string): OpenApiValidator {
  // Schema refs point into one registered resource holding the components, so any schema of the
  // document compiles alone; the document itself is no schema (strict mode refuses `openapi`).
  const document = JSON.parse(JSON.stringify(served), (key, value) =>
    key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT_SCHEMAS)
      ? `${COMPONENTS_ID}#/$defs/${value.slice(COMPONENT_SCHEMAS.length)}`
      : value,
  );
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv);
  // OpenAPI's own annotation beside JSON Schema's `examples`.
  ajv.addVocabulary(['example']);
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: document.components.schemas });
  const validators = new Map<object, ValidateFunction>();
  const validatorOf = (schema: object) => {
    let validate = validators.get(schema);
    if (!validate) validators.set(schema, (validate = ajv.compile(schema)));
    return validate;
  };
  const problems = (schema: object, value: unknown) => {
    const validate = validatorOf(schema);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
  };
  /** Follows a `#/components/...` reference (responses, parameters) to what it names. */
  const deref = <T>(node: T & { $ref?: string }): T =>
    node.$ref
      ? node.$ref
          .slice(2)
          .split('/')
          .reduce((at: any, part) => at[part], document)
      : node;

  const operations: Operation[] = [];
  for (const [template, item] of Object.entries<any>(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const parameters: Parameter[] = [...(item.parameters ?? []), ...(op.parameters ?? [])].map(deref);
      operations.push({
        operationId: op.operationId,
        tag: op.tags[0],
        method: method.toUpperCase(),
        template,
        versioned: !item.servers,
        matcher: templateMatcher(template),
        pathParameters: parameters.filter((p) => p.in === 'path'),
        queryParameters: parameters.filter((p) => p.in === 'query'),
        responses: Object.fromEntries(
          Object.entries<any>(op.responses).map(([status, ref]) => {
            const response: Response = deref(ref);
            const headers = Object.entries(response.headers ?? {}).map(([name, header]) => [name, deref(header)]);
            return [status, { ...response, headers: Object.fromEntries(headers) }];
          }),
        ),
      });
    }
  }
  // Fewer parameters first: /codes/bulk is not /codes/{id}.
  operations.sort((a, b) => a.pathParameters.length - b.pathParameters.length);
  const prefix = `/${version}/`;

  /** The query of a request the service served: every parameter declared, and as its schema says. */
  function queryMismatches(op: Operation, path: string): string[] {
    const found: string[] = [];
    const query = new URLSearchParams(path.includes('?') ? path.slice(path.indexOf('?') + 1) : '');
    for (const name of new Set(query.keys())) {
      const parameter = op.queryParameters.find((p) => p.name === name);
      if (!parameter) {
        found.push(`query parameter ${name} was served but the document does not declare it`);
        continue;
      }
      const texts = query.getAll(name);
      const read = queryValue(parameter, texts);
      const shown = `${name}=${texts.join(`&${name}=`)}`;
      if ('refused' in read) found.push(`query parameter ${shown}: ${read.refused}`);
      else
        for (const problem of problems(parameter.schema, read.value))
          found.push(`query parameter ${shown} was served but the document refuses it: ${problem}`);
    }
    return found;
  }

  function mismatches(op: Operation, path: string, response: TestResponse): string[] {
    const found: string[] = [];
    const status = String(response.status);
    const declared = op.responses[status];
    if (!declared) return [`status ${status} is not declared: ${response.text.slice(0, 300)}`];
    if (response.status >= 200 && response.status < 300) found.push(...queryMismatches(op, path));
    if (response.status < 400) {
      const bare = path.split('?')[0]!;
      const values = op.matcher.exec(op.versioned ? bare.slice(prefix.length - 1) : bare)!.groups ?? {};
      for (const parameter of op.pathParameters) {
        const value = decodeURIComponent(values[parameter.name]!);
        for (const problem of problems(parameter.schema, value))
          found.push(`path parameter ${parameter.name}=${value} was served but the document refuses it: ${problem}`);
      }
    }
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    const mediaTypes = Object.keys(declared.content ?? {});
    if (op.method === 'HEAD' || mediaTypes.length === 0) {
      if (response.text !== '') found.push(`a body where none is declared: ${response.text.slice(0, 200)}`);
    } else if (!mediaTypes.includes(contentType)) {
      found.push(`Content-Type ${contentType || '(none)'} is not one of ${mediaTypes.join(', ')}`);
    } else if (contentType.endsWith('json')) {
      for (const problem of problems(declared.content![contentType]!.schema, response.body))
        found.push(`body ${problem}: ${response.text.slice(0, 300)}`);
    }
    for (const [name, header] of Object.entries(declared.headers ?? {})) {
      const text = response.headers.get(name);
      if (text === null) {
        if (header.required) found.push(`required header ${name} is missing`);
        continue;
      }
      for (const problem of problems(header.schema, textValue(text, header.schema)))
        found.push(`header ${name}: ${text}: ${problem}`);
    }
    return found;
  }

  return {
    operations,
    operationFor(method, path) {
      const bare = path.split('?')[0]!;
      return operations.find((op) => {
        if (op.method !== method.toUpperCase()) return false;
        if (!op.versioned) return op.matcher.test(bare);
        return bare.startsWith(prefix) && op.matcher.test(bare.slice(prefix.length - 1));
      });
    },
    mismatches,
    schemaProblems(name, value) {
      if (!Object.hasOwn(document.components.schemas, name)) throw new Error(`the document has no schema ${name}`);
      return problems({ $ref: `${COMPONENTS_ID}#/$defs/${name}` }, value);
    },
  };
}
