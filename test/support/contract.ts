// Checks real answers against the OpenAPI document the server serves (openapi-validator.ts):
// every answer a contract client receives must conform, or the test fails there. Every checked
// answer is recorded, so a suite can assert it walked every operation of its tag, and the run
// reports which operations of the document its answers exercised (contract-coverage.ts).
import { afterAll, expect } from 'vitest';
import { getTestApp, type TestApp, type TestResponse } from './app.ts';
import { recordContractCoverage, type ContractCoverage } from './contract-coverage.ts';
import { createOpenApiValidator, type Operation } from './openapi-validator.ts';

export interface Contract {
  document: any;
  operations: readonly Operation[];
  /** Checks one answer of `method path` (the path as requested, with its /v1 prefix) and records it. */
  check(method: string, path: string, response: TestResponse): void;
  /** Fails unless every operation of the tag had a success (2xx/3xx) and, when it declares any, a 4xx checked. */
  expectTagCovered(tag: string): void;
}

/** What this test file's contracts saw, written for the run's report when the file ends. */
const coverages: ContractCoverage[] = [];
afterAll(() => recordContractCoverage(coverages));

/** Loads `/{version}/openapi.json` from the running server and prepares the checks. */
export async function loadContract(app: TestApp, version = 'v1'): Promise<Contract> {
  const served = await app.request('GET', `/${version}/openapi.json`);
  expect(served.status).toBe(200);
  const document = served.body;
  const validator = createOpenApiValidator(document, version);
  const { operations } = validator;
  const coverage: ContractCoverage = {
    version,
    operations: operations.map((op) => op.operationId),
    seen: {},
    answers: 0,
    mismatches: 0,
  };
  coverages.push(coverage);

  return {
    document,
    operations,
    check(method, path, response) {
      const op = validator.operationFor(method, path);
      if (!op) {
        coverage.mismatches++;
        throw new Error(`the document has no operation for ${method} ${path.split('?')[0]}`);
      }
      const mismatches = validator.mismatches(op, path, response);
      coverage.answers++;
      coverage.mismatches += mismatches.length;
      expect(mismatches, `${op.operationId} answered ${response.status} to ${method} ${path}`).toEqual([]);
      const statuses = (coverage.seen[op.operationId] ??= []);
      if (!statuses.includes(String(response.status))) statuses.push(String(response.status));
    },
    expectTagCovered(tag) {
      const ofTag = operations.filter((op) => op.tag === tag);
      expect(ofTag.length, `the document has no operations tagged ${tag}`).toBeGreaterThan(0);
      const missing = ofTag.flatMap((op) => {
        const statuses = coverage.seen[op.operationId] ?? [];
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
