// npm run bench:imports [-- --runs 3]   (DATABASE_URL=mysql://… for MariaDB; SQLite otherwise)
//
// POST /v1/imports of a 10,000-link YOURLS export against the in-process service over HTTP: the
// dry run, the real run (every link created through bulk creation) and a second run (every link
// found already here). Prints each run's time.
import { parseArgs } from 'node:util';
import { getTestApp } from '../test/support/app.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const COUNT = 10_000;

const exportOf = (run: number) =>
  [
    'keyword,url,title,timestamp,ip,clicks',
    ...Array.from(
      { length: COUNT },
      (_, i) => `r${run}-link-${i},https://example.com/page/${i}?ref=qr,Link ${i},2024-01-02 03:04:05,203.0.113.1,${i}`,
    ),
  ].join('\n');

const app = await getTestApp({ BULK_BODY_LIMIT: '16mb' });
try {
  for (let run = 1; run <= Number(values.runs); run++) {
    const key = await app.newAccountKey();
    const body = { format: 'yourls_csv', content: exportOf(run) };
    const timed = async (label: string, extra: Record<string, unknown>, field: string) => {
      const started = performance.now();
      const res = await app.request('POST', '/v1/imports', { key, body: { ...body, ...extra } });
      const ms = performance.now() - started;
      if (res.body[field] !== COUNT) throw new Error(`${label}: ${res.status} ${res.text.slice(0, 300)}`);
      return `${label} ${(ms / 1000).toFixed(2)} s`;
    };
    const results = [
      await timed('dry run', { dry_run: true }, 'would_create'),
      await timed('import', {}, 'created'),
      await timed('second run', {}, 'existing'),
    ];
    console.log(`run ${run} (${app.testDb.url.split(':')[0]}, ${COUNT} links): ${results.join(', ')}`);
  }
} finally {
  await app.close();
}
