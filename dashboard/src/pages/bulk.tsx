// Bulk creation from a CSV file (the format of POST /v1/codes/bulk): every row becomes a code,
// or, when any row is invalid, none does and each row's problems are listed.
import { useState } from 'preact/hooks';
import { RowProblems } from '../bulk/row-problems.tsx';
import { Link } from '../components/link.tsx';
import { ErrorBox } from '../components/messages.tsx';
import { ApiError, graphql } from '../graphql.ts';
import { FormatDownloads } from '../components/format-downloads.tsx';
import { codeTitle, describeContent } from '../format.ts';
import { usePageTitle } from '../page-focus.ts';
import { useT } from '../i18n/index.ts';

const IMPORT =
  'mutation Import($csv: String!) { ' +
  'bulkCreateCodesFromCsv(csv: $csv) { batchId created codes { id type content name scanUrl } } }';
const LISTED = 10;
/** The most rows one upload may have (the bulk API's limit). */
const MAX_ROWS = 10_000;

const SAMPLE = `type,content,name,fg_color,bg_color,style,error_correction,logo_url
,https://example.com/a,Poster A,,,,,
url,"https://example.com/search?q=a,b","Flyer, blue",#1d4ed8,#ffffff,dots,H,
text,"{""text"": ""Hello, world""}",,,,rounded,,`;

interface Created {
  batchId: string;
  created: number;
  codes: { id: string; type: string; content: unknown; name: string | null; scanUrl: string | null }[];
}

/** Where an upload is: sending the file (with the fraction sent), waiting for the server, or finished. */
type Phase =
  | { step: 'idle' }
  | { step: 'uploading'; fraction: number }
  | { step: 'creating' }
  | { step: 'done'; result: Created }
  | { step: 'failed'; error: unknown };

function Progress({ phase }: { phase: Phase }) {
  const t = useT();
  if (phase.step === 'uploading') {
    const percent = Math.round(phase.fraction * 100);
    return (
      <p class="progress" role="status">
        <progress max={100} value={percent} /> {t.bulk.uploading(percent / 100)}
      </p>
    );
  }
  if (phase.step === 'creating') {
    return (
      <p class="progress" role="status">
        <progress /> {t.bulk.creating}
      </p>
    );
  }
  return null;
}

export function BulkPage() {
  const t = useT();
  usePageTitle(t.bulk.title);
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const busy = phase.step === 'uploading' || phase.step === 'creating';

  async function upload(event: Event) {
    event.preventDefault();
    if (!file) return setPhase({ step: 'failed', error: t.bulk.chooseFile });
    if (file.size === 0) return setPhase({ step: 'failed', error: t.bulk.emptyFile(file.name) });
    setPhase({ step: 'uploading', fraction: 0 });
    try {
      const csv = await file.text();
      const onUploadProgress = (fraction: number) =>
        setPhase(fraction < 1 ? { step: 'uploading', fraction } : { step: 'creating' });
      const { bulkCreateCodesFromCsv } = await graphql<{ bulkCreateCodesFromCsv: Created }>(
        IMPORT,
        { csv },
        { onUploadProgress },
      );
      setPhase({ step: 'done', result: bulkCreateCodesFromCsv });
    } catch (error) {
      setPhase({ step: 'failed', error });
    }
  }

  const problems = phase.step === 'failed' && phase.error instanceof ApiError ? phase.error.problems : [];
  return (
    <section>
      <h1>{t.bulk.title}</h1>
      <p>
        {t.bulk.intro(
          (name) => (
            <code>{name}</code>
          ),
          MAX_ROWS,
        )}
      </p>
      <details>
        <summary>{t.bulk.example}</summary>
        <pre>{SAMPLE}</pre>
      </details>
      <form class="bulk-form" onSubmit={upload}>
        <label for="csv-file">{t.bulk.file}</label>
        <input
          id="csv-file"
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        <button type="submit" disabled={busy}>
          {t.bulk.submit}
        </button>
      </form>
      <Progress phase={phase} />
      {phase.step === 'failed' && (
        <ErrorBox
          error={phase.error instanceof ApiError ? phase.error.message : phase.error}
          title={t.bulk.nothingCreated}
        />
      )}
      <RowProblems problems={problems} />
      {phase.step === 'done' && (
        <div class="bulk-result" role="status">
          <p>
            {t.bulk.created(phase.result.created, <code>{phase.result.batchId}</code>)}
            <Link to="/codes">{t.common.seeThemInTheCodes}</Link>.
          </p>
          <p class="print-run">
            {t.bulk.printRun}{' '}
            <FormatDownloads
              what={t.bulk.zipOfBatch}
              file={(format) => ({
                path: `/v1/batches/${encodeURIComponent(phase.result.batchId)}/images.zip?format=${format}`,
                filename: `${phase.result.batchId}-${format}.zip`,
              })}
            />
          </p>
          <ul>
            {phase.result.codes.slice(0, LISTED).map((code) => (
              <li key={code.id}>
                <Link to={`/codes/${code.id}`}>{codeTitle(code)}</Link> → {describeContent(code.type, code.content)}
              </li>
            ))}
            {phase.result.created > LISTED && <li>{t.bulk.more(phase.result.created - LISTED)}</li>}
          </ul>
        </div>
      )}
    </section>
  );
}
