// The MySQL host's lookup against a resolver that drops and refuses queries as a reloading
// container DNS server does (patient-lookup.ts). The real resolver's part is in
// scripts/compose-test.sh: scans through a replica while another container restarts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { patientLookup } from '../../src/db/patient-lookup.ts';

type Answer = { err: NodeJS.ErrnoException | null; address?: string } | 'never';

/** A resolver that gives `answers` in turn (the last one from then on) and counts the questions. */
function resolver(...answers: Answer[]) {
  const asked: number[] = [];
  const resolve = (
    _host: string,
    _options: object,
    callback: (err: NodeJS.ErrnoException | null, ...answer: unknown[]) => void,
  ) => {
    const answer = answers[Math.min(asked.length, answers.length - 1)]!;
    asked.push(Date.now());
    if (answer === 'never') return;
    setTimeout(() => (answer.err ? callback(answer.err) : callback(null, answer.address, 4)), 5);
  };
  return { resolve, asked };
}
const error = (code: string) => Object.assign(new Error(`getaddrinfo ${code} mariadb`), { code });
const found = { err: null, address: '10.89.0.2' };

/** What the lookup of `mariadb` calls back with, and when (ms after it began). */
async function lookUp(resolve: ReturnType<typeof resolver>['resolve']) {
  const started = Date.now();
  const result = new Promise<{ err: NodeJS.ErrnoException | null; address?: unknown; at: number }>((done) =>
    patientLookup(resolve)('mariadb', {}, (err: NodeJS.ErrnoException | null, address?: unknown) =>
      done({ err, address, at: Date.now() - started }),
    ),
  );
  await vi.runAllTimersAsync();
  return result;
}

describe('patientLookup', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('answers at once when the resolver does, asking once', async () => {
    const { resolve, asked } = resolver(found);
    expect(await lookUp(resolve)).toEqual({ err: null, address: '10.89.0.2', at: 5 });
    expect(asked).toHaveLength(1);
  });

  it('asks again beside a question that got no answer, and takes the second answer', async () => {
    const { resolve, asked } = resolver('never', found);
    expect(await lookUp(resolve)).toEqual({ err: null, address: '10.89.0.2', at: 1_005 });
    expect(asked).toHaveLength(2);
  });

  it('asks again after a name not found, and takes the next answer', async () => {
    const { resolve, asked } = resolver({ err: error('ENOTFOUND') }, found);
    expect(await lookUp(resolve)).toMatchObject({ err: null, address: '10.89.0.2', at: 260 });
    expect(asked).toHaveLength(2);
  });

  it('gives up on a name never found within its budget, with the resolver error', async () => {
    const { resolve, asked } = resolver({ err: error('ENOTFOUND') });
    const { err, at } = await lookUp(resolve);
    expect(err?.code).toBe('ENOTFOUND');
    expect(at).toBeLessThanOrEqual(6_005);
    expect(asked.length).toBeGreaterThan(5);
  });

  it('fails at once on an error a retry cannot mend', async () => {
    const { resolve, asked } = resolver({ err: error('EBADNAME') });
    expect(await lookUp(resolve)).toMatchObject({ err: { code: 'EBADNAME' }, at: 5 });
    expect(asked).toHaveLength(1);
  });

  it('keeps at most three questions open while the resolver answers none', async () => {
    const { resolve, asked } = resolver('never');
    const settled = vi.fn();
    patientLookup(resolve)('mariadb', {}, settled);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(asked).toHaveLength(3);
    expect(settled).not.toHaveBeenCalled();
  });
});
