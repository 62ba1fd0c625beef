// Which operations of the served OpenAPI document the contract tests' answers exercised, over
// the whole run: each test file writes what its contracts saw (recordContractCoverage) into a
// folder the run's global setup provides, and the setup's teardown adds them up and prints the
// report. Failing is the tests' part: each tag's suite asserts it walked every operation of the
// tag (expectTagCovered), and test/contract/routes.test.ts that every tag has such a suite.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    contractCoverageDir: string;
  }
}

export interface ContractCoverage {
  version: string;
  /** Every operationId of the document. */
  operations: string[];
  /** operationId -> the statuses its checked answers had. */
  seen: Record<string, string[]>;
  answers: number;
  mismatches: number;
}

/** Writes one test file's coverage for the run's report; nothing outside a run with the setup. */
export function recordContractCoverage(coverages: readonly ContractCoverage[]): void {
  const dir = inject('contractCoverageDir');
  if (!dir || coverages.length === 0) return;
  writeFileSync(join(dir, `${process.pid}-${Date.now()}-${Math.random()}.json`), JSON.stringify(coverages));
}

/** The report's lines, per document version: answers, mismatches, operations exercised and not. */
export function coverageReport(coverages: readonly ContractCoverage[]): string[] {
  const versions = new Map<string, ContractCoverage>();
  for (const coverage of coverages) {
    const total = versions.get(coverage.version);
    if (!total) {
      versions.set(coverage.version, structuredClone(coverage));
      continue;
    }
    total.answers += coverage.answers;
    total.mismatches += coverage.mismatches;
    for (const [id, statuses] of Object.entries(coverage.seen))
      total.seen[id] = [...new Set([...(total.seen[id] ?? []), ...statuses])];
  }
  return [...versions.values()].flatMap(({ version, operations, seen, answers, mismatches }) => {
    const missed = operations.filter((id) => !seen[id]);
    return [
      `OpenAPI contract (${version}): ${answers} answers checked, ${mismatches} mismatches; ` +
        `${operations.length - missed.length} of ${operations.length} operations exercised`,
      ...operations.map(
        (id) => `  ${seen[id] ? 'ok     ' : 'MISSING'} ${id} ${[...(seen[id] ?? [])].sort().join(' ')}`,
      ),
    ];
  });
}

/** Vitest's global setup: the folder for the files' coverage, and the report at the end. */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'qr-contract-coverage-'));
  project.provide('contractCoverageDir', dir);
  return () => {
    const coverages = readdirSync(dir).flatMap(
      (file) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as ContractCoverage[],
    );
    rmSync(dir, { recursive: true, force: true });
    if (coverages.length > 0) console.log(coverageReport(coverages).join('\n'));
  };
}
