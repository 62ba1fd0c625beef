// A client that writes its whole body before it reads gets the problem for an oversized (or
// unauthorised) body, not a reset connection: Python's urllib, the client the finding named,
// run as a child process against the server on loopback. A body far past the drain bound is
// cut off rather than read forever.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let key: string;

beforeAll(async () => {
  // Default limits: 1 MiB of JSON, 16 MiB for bulk, so up to 32 MiB is drained.
  app = await getTestApp();
  key = await app.newAccountKey();
});
afterAll(() => app.close());

/** urllib sends the whole body with sendall(), then reads: prints the status, or the error it got. */
const PYTHON = `
import sys, urllib.request, urllib.error
url, size, key = sys.argv[1], int(sys.argv[2]), sys.argv[3]
headers = {'Content-Type': 'application/json', 'Authorization': 'Bearer ' + key}
request = urllib.request.Request(url, data=b'a' * size, method='POST', headers=headers)
try:
    urllib.request.urlopen(request)
    print('200')
except urllib.error.HTTPError as e:
    print(e.code, e.headers.get('Content-Type'), e.read().decode()[:200])
except Exception as e:
    print('failed', type(e).__name__, e)
`;

async function python(path: string, bytes: number, apiKey = key): Promise<string> {
  const { stdout } = await promisify(execFile)('python3', ['-c', PYTHON, `${app.url}${path}`, String(bytes), apiKey], {
    timeout: 60_000,
  });
  return stdout.trim();
}

// 8 MiB: more than loopback's socket buffers take in while nobody reads.
describe('a body sent whole before the answer is read', () => {
  it.each(['/v1/codes', '/graphql', '/v1/codes/bulk'])(
    '%s: the 413 problem arrives, not a broken pipe',
    async (path) => {
      const bytes = path === '/v1/codes' ? 8 * 1024 * 1024 : 24 * 1024 * 1024;
      const answer = await python(path, bytes);
      expect(answer).toMatch(/^413 application\/problem\+json /);
      expect(answer).toContain('"status":413');
    },
  );

  it('an unknown key with a big body gets its 401 problem too', async () => {
    expect(await python('/v1/codes', 8 * 1024 * 1024, 'qrk_unknown')).toMatch(/^401 application\/problem\+json /);
  });

  it('a body far past the bound (twice the largest limit) is cut, and the server goes on', async () => {
    expect(await python('/v1/codes', 40 * 1024 * 1024)).toMatch(/^failed /);
    expect((await app.request('GET', '/v1/codes', { key })).status).toBe(200);
  });
});
