// Moving in: a Bitly, Shlink, YOURLS or Kutt export checked (dry run) and imported through the
// importCodes mutation, every row reported with its status and, when it cannot be created, why.
import { useState } from 'preact/hooks';
import { Link } from '../components/link.tsx';
import { ErrorBox } from '../components/messages.tsx';
import { graphql } from '../graphql.ts';
import { useT } from '../i18n/index.ts';
import { usePageTitle } from '../page-focus.ts';

const IMPORT =
  'mutation Import($input: ImportCodesInput!) { importCodes(input: $input) { dryRun batchId total wouldCreate ' +
  'created existing failed rows { row status domain slug codeId reason } } }';

const FORMATS = ['bitly_csv', 'shlink_csv', 'shlink_json', 'yourls_csv', 'kutt_json'] as const;

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
  const t = useT();
  const words = t.imports;
  const done = report.dryRun ? words.wouldCreate(report.wouldCreate) : words.created(report.created);
  return (
    <p role="status" class="import-summary">
      {report.dryRun && words.dryRun}
      {words.summary(report.total, done, report.existing, report.failed)}
      {report.batchId && (
        <>
          {' '}
          <Link to="/codes">{t.common.seeThemInTheCodes}</Link>.
        </>
      )}
    </p>
  );
}

export function ImportPage() {
  const t = useT().imports;
  usePageTitle(t.title);
  const [format, setFormat] = useState<string>(FORMATS[0]);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const [error, setError] = useState<unknown>(null);

  async function run(dryRun: boolean) {
    setError(null);
    setReport(null);
    if (!file) return setError(t.chooseFile);
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
      <h1>{t.title}</h1>
      <p>
        {t.intro((words) => (
          <Link to="/domains">{words}</Link>
        ))}
      </p>
      <form class="bulk-form" onSubmit={submit}>
        <label for="import-format">{t.from}</label>
        <select id="import-format" value={format} onChange={(e) => setFormat(e.currentTarget.value)}>
          {FORMATS.map((value) => (
            <option key={value} value={value}>
              {t.formats[value]}
            </option>
          ))}
        </select>
        <label for="import-file">{t.file}</label>
        <input
          id="import-file"
          type="file"
          accept=".csv,.json,text/csv,application/json"
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        <button type="button" class="secondary" disabled={busy} onClick={() => void run(true)}>
          {t.check}
        </button>
        <button type="submit" disabled={busy}>
          {t.submit}
        </button>
      </form>
      {busy && (
        <p class="progress" role="status">
          <progress /> {t.reading}
        </p>
      )}
      {error !== null && <ErrorBox error={error} title={t.nothingImported} />}
      {report && (
        <>
          <Summary report={report} />
          <table class="import-rows">
            <thead>
              <tr>
                <th scope="col">{t.columns.row}</th>
                <th scope="col">{t.columns.link}</th>
                <th scope="col">{t.columns.result}</th>
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
                    {r.reason
                      ? t.reason(t.statuses[r.status] ?? r.status, r.reason)
                      : (t.statuses[r.status] ?? r.status)}
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
