// Moving in: a Bitly, Shlink, YOURLS or Kutt export checked (dry run) and imported through the
// importCodes mutation, every row reported with its status and, when it cannot be created, why.
import { useState } from 'preact/hooks';
import { Link } from '../components/link.tsx';
import { ErrorBox } from '../components/messages.tsx';
import { graphql } from '../graphql.ts';

const IMPORT =
  'mutation Import($input: ImportCodesInput!) { importCodes(input: $input) { dryRun batchId total wouldCreate ' +
  'created existing failed rows { row status domain slug codeId reason } } }';

const FORMATS = [
  ['bitly_csv', 'Bitly (CSV export)'],
  ['shlink_csv', 'Shlink (CSV export)'],
  ['shlink_json', 'Shlink (REST list, JSON)'],
  ['yourls_csv', 'YOURLS (url table, CSV)'],
  ['kutt_json', 'Kutt (API list, JSON)'],
] as const;

const STATUS_WORDS: Record<string, string> = {
  would_create: 'would be created',
  created: 'created',
  exists: 'already here',
  failed: 'cannot be created',
};

interface Report {
  dryRun: boolean;
  batchId: string | null;
  total: number;
  wouldCreate: number;
  created: number;
  existing: number;
  failed: number;
  rows: {
    row: number;
    status: string;
    domain: string | null;
    slug: string | null;
    codeId: string | null;
    reason: string | null;
  }[];
}

function Summary({ report }: { report: Report }) {
  const done = report.dryRun ? `${report.wouldCreate} would be created` : `${report.created} created`;
  return (
    <p role="status" class="import-summary">
      {report.dryRun ? 'Dry run, nothing written: ' : ''}
      {report.total} links: {done}, {report.existing} already here, {report.failed} cannot be created.
      {report.batchId && (
        <>
          {' '}
          <Link to="/codes">See them in the codes</Link>.
        </>
      )}
    </p>
  );
}

export function ImportPage() {
  const [format, setFormat] = useState<string>(FORMATS[0][0]);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function run(dryRun: boolean) {
    setError(null);
    setReport(null);
    if (!file) return setError('Choose the export file first.');
    setBusy(true);
    try {
      const content = await file.text();
      const { importCodes } = await graphql<{ importCodes: Report }>(IMPORT, { input: { format, content, dryRun } });
      setReport(importCodes);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  function submit(event: Event) {
    event.preventDefault();
    void run(false);
  }

  return (
    <section>
      <h1>Import</h1>
      <p>
        Bring your links from another service: each becomes a code with its destination, slug, title, tags, creation
        date and past clicks (kept apart from the scans counted here). A link keeps the host of its short URL, which
        must be one of your verified <Link to="/domains">domains</Link>. Check the file first; importing it again
        creates nothing new.
      </p>
      <form class="bulk-form" onSubmit={submit}>
        <label for="import-format">Export from</label>
        <select id="import-format" value={format} onChange={(e) => setFormat(e.currentTarget.value)}>
          {FORMATS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        <label for="import-file">File</label>
        <input
          id="import-file"
          type="file"
          accept=".csv,.json,text/csv,application/json"
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        <button type="button" class="secondary" disabled={busy} onClick={() => void run(true)}>
          Check
        </button>
        <button type="submit" disabled={busy}>
          Import
        </button>
      </form>
      {busy && (
        <p class="progress" role="status">
          <progress /> Reading every link…
        </p>
      )}
      {error !== null && <ErrorBox error={error} title="Nothing was imported:" />}
      {report && (
        <>
          <Summary report={report} />
          <table class="import-rows">
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Link</th>
                <th scope="col">Result</th>
              </tr>
            </thead>
            <tbody>
              {report.rows.map((r) => (
                <tr key={r.row} data-status={r.status}>
                  <td>{r.row}</td>
                  <td>
                    {r.codeId ? (
                      <Link to={`/codes/${r.codeId}`}>{`${r.domain ?? ''}/${r.slug}`}</Link>
                    ) : (
                      `${r.domain ?? ''}/${r.slug ?? ''}`
                    )}
                  </td>
                  <td>
                    {STATUS_WORDS[r.status] ?? r.status}
                    {r.reason ? `: ${r.reason}` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
