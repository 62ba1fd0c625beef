// Checks real answers against the OpenAPI document the server serves: the status must be one
// the operation declares, the Content-Type its media type, required headers present, and a
// JSON body valid against the declared schema (Ajv, JSON Schema 2020-12, which OpenAPI 3.1
// uses). Every checked answer is recorded, so a suite can assert it walked every operation.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { getTestApp, type TestApp, type TestResponse } from './app.ts';

// ajv-formats is CommonJS with a default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Operation {
  operationId: string;
  tag: string;
  method: string;
  /** The path template as in the document, e.g. /codes/{id}. */
  template: string;
  /** Whether the path sits under the version (servers: /v1) or at the root. */
  versioned: boolean;
  matcher: RegExp;
  /** Parameters in the template: fewer means more specific (/codes/bulk before /codes/{id}). */
  params: number;
  responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, { required?: boolean }> }>;
}

export interface Contract {
  document: any;
  operations: Operation[];
  /** Checks one answer of `method path` (the path as requested, with its /v1 prefix) and records it. */
  check(method: string, path: string, response: TestResponse): void;
  /** Fails unless every operation of the tag had a success (2xx/3xx) and, when it declares any, a 4xx checked. */
  expectTagCovered(tag: string): void;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function templateMatcher(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '[^/]+' : escapeRegExp(part)))
    .join('');
  return new RegExp(`^${source}$`);
}

/** Loads `/{version}/openapi.json` from the running server and prepares the checks. */
export async function loadContract(app: TestApp, version = 'v1'): Promise<Contract> {
  const served = await app.request('GET', `/${version}/openapi.json`);
  expect(served.status).toBe(200);
  const document = served.body;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // The whole document is one schema resource, so the bodies' #/components/... refs resolve.
  ajv.addSchema(document, 'openapi');

  const operations: Operation[] = [];
  for (const [template, item] of Object.entries<any>(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      operations.push({
        operationId: op.operationId,
        tag: op.tags[0],
        method: method.toUpperCase(),
        template,
        versioned: !item.servers,
        matcher: templateMatcher(template),
        params: (template.match(/\{/g) ?? []).length,
        responses: op.responses,
      });
    }
  }
  operations.sort((a, b) => a.params - b.params);
  const seen = new Map<string, Set<string>>();
  const validators = new Map<string, ReturnType<Ajv2020['compile']>>();

  function find(method: string, path: string): Operation {
    const bare = path.split('?')[0]!;
    const prefix = `/${version}`;
    const match = operations.find((op) => {
      if (op.method !== method) return false;
      if (!op.versioned) return op.matcher.test(bare);
      return bare.startsWith(`${prefix}/`) && op.matcher.test(bare.slice(prefix.length));
    });
    if (!match) throw new Error(`the document has no operation for ${method} ${bare}`);
    return match;
  }

  /** The declared response and where it sits in the document (shared ones are components). */
  function declaredResponse(
    op: Operation,
    status: string,
  ): { response: Operation['responses'][string]; at: string[] } | undefined {
    const declared = op.responses[status] as (Operation['responses'][string] & { $ref?: string }) | undefined;
    if (!declared) return undefined;
    if (!declared.$ref)
      return { response: declared, at: ['paths', op.template, op.method.toLowerCase(), 'responses', status] };
    const at = declared.$ref.replace(/^#\//, '').split('/');
    return { response: at.reduce((node: any, part) => node[part], document), at };
  }

  function validatorFor(at: string[], mediaType: string) {
    const key = [...at, mediaType].join(' ');
    let validate = validators.get(key);
    if (!validate) {
      const pointer = [...at, 'content', mediaType, 'schema']
        .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
        .join('/');
      validate = ajv.compile({ $ref: `openapi#/${pointer}` });
      validators.set(key, validate);
    }
    return validate;
  }

  return {
    document,
    operations,
    check(method, path, response) {
      const op = find(method, path);
      const status = String(response.status);
      const found = declaredResponse(op, status);
      expect(
        found,
        `${op.operationId} answered ${status}, which the document does not declare: ${response.text.slice(0, 300)}`,
      ).toBeDefined();
      const declared = found!.response;
      const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
      const mediaTypes = Object.keys(declared!.content ?? {});
      if (mediaTypes.length === 0) {
        expect(response.text, `${op.operationId} ${status} declares no body`).toBe('');
      } else {
        expect(mediaTypes, `${op.operationId} ${status}: Content-Type ${contentType}`).toContain(contentType);
        if (contentType.endsWith('json')) {
          const validate = validatorFor(found!.at, contentType);
          const valid = validate(response.body);
          expect(validate.errors ?? [], `${op.operationId} ${status} body: ${response.text.slice(0, 500)}`).toEqual([]);
          expect(valid).toBe(true);
        }
      }
      for (const [name, header] of Object.entries(declared!.headers ?? {})) {
        if (header.required)
          expect(response.headers.get(name), `${op.operationId} ${status} header ${name}`).not.toBeNull();
      }
      let statuses = seen.get(op.operationId);
      if (!statuses) seen.set(op.operationId, (statuses = new Set()));
      statuses.add(status);
    },
    expectTagCovered(tag) {
      const ofTag = operations.filter((op) => op.tag === tag);
      expect(ofTag.length, `the document has no operations tagged ${tag}`).toBeGreaterThan(0);
      const missing = ofTag.flatMap((op) => {
        const statuses = [...(seen.get(op.operationId) ?? [])];
        const gaps: string[] = [];
        if (!statuses.some((s) => s < '400')) gaps.push(`${op.operationId}: no success checked`);
        const declaresClientErrors = Object.keys(op.responses).some((s) => s.startsWith('4'));
        if (declaresClientErrors && !statuses.some((s) => s >= '400' && s < '500'))
          gaps.push(`${op.operationId}: no 4xx checked`);
        return gaps;
      });
      expect(missing).toEqual([]);
    },
  };
}

/** A request through the test app whose answer is checked against the contract. */
export function contractClient(app: TestApp, contract: Contract) {
  return async function call<T = any>(
    method: string,
    path: string,
    options?: Parameters<TestApp['request']>[2],
  ): Promise<TestResponse<T>> {
    const response = await app.request<T>(method, path, options);
    contract.check(method, path, response);
    return response;
  };
}

/** A fresh test app with its served contract and a checking client: every contract suite's start. */
export async function startContractApp(
  env: Record<string, string> = {},
  options: Parameters<typeof getTestApp>[1] = {},
) {
  const app = await getTestApp(env, options);
  const contract = await loadContract(app);
  return { app, contract, call: contractClient(app, contract) };
}
