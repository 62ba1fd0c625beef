// Bulk creation from a CSV file (the format of POST /v1/codes/bulk): every row becomes a code,
// or, when any row is invalid, none does and each row's problems are listed.
import { useState } from 'preact/hooks';
import { RowProblems } from '../bulk/row-problems.tsx';
import { Link } from '../components/link.tsx';
import { ErrorBox } from '../components/messages.tsx';
import { ApiError, graphql } from '../graphql.ts';
import { describeContent } from '../format.ts';

const IMPORT =
  'mutation Import($csv: String!) { ' +
  'bulkCreateCodesFromCsv(csv: $csv) { batchId created codes { id type content scanUrl } } }';
const LISTED = 10;

const SAMPLE = `type,content,name,fg_color,bg_color,style,error_correction,logo_url
,https://example.com/a,Poster A,,,,,
url,"https://example.com/search?q=a,b","Flyer, blue",#1d4ed8,#ffffff,dots,H,
text,"{""text"": ""Hello, world""}",,,,rounded,,`;

interface Created {
  batchId: string;
  created: number;
  codes: { id: string; type: string; content: unknown; scanUrl: string | null }[];
}

/** Where an upload is: sending the file (with the fraction sent), waiting for the server, or finished. */
type Phase =
  | { step: 'idle' }
  | { step: 'uploading'; fraction: number }
  | { step: 'creating' }
  | { step: 'done'; result: Created }
  | { step: 'failed'; error: unknown };

function Progress({ phase }: { phase: Phase }) {
  if (phase.step === 'uploading') {
    const percent = Math.round(phase.fraction * 100);
    return (
      <p class="progress" role="status">
        <progress max={100} value={percent} /> Uploading… {percent}%
      </p>
    );
  }
  if (phase.step === 'creating') {
    return (
      <p class="progress" role="status">
        <progress /> Checking every row and creating the codes…
      </p>
    );
  }
  return null;
}

export function BulkPage() {
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ step: 'idle' });
  const busy = phase.step === 'uploading' || phase.step === 'creating';

  async function upload(event: Event) {
    event.preventDefault();
    if (!file) return setPhase({ step: 'failed', error: 'Choose a CSV file first.' });
    if (file.size === 0) return setPhase({ step: 'failed', error: `${file.name} is empty.` });
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
      <h1>Bulk upload</h1>
      <p>
        One code per row, under a header naming the columns: <code>content</code> and any of <code>type</code>,{' '}
        <code>fg_color</code>, <code>bg_color</code>, <code>style</code>, <code>error_correction</code>,{' '}
        <code>logo_url</code>, <code>tags</code> (names separated by <code>|</code>, e.g. <code>print|spring</code>; new
        ones are created). Up to 10,000 rows; all are created, or none when a row is invalid.
      </p>
      <details>
        <summary>Example</summary>
        <pre>{SAMPLE}</pre>
      </details>
      <form class="bulk-form" onSubmit={upload}>
        <label for="csv-file">CSV file (UTF-8)</label>
        <input
          id="csv-file"
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
        />
        <button type="submit" disabled={busy}>
          Upload and create
        </button>
      </form>
      <Progress phase={phase} />
      {phase.step === 'failed' && (
        <ErrorBox
          error={phase.error instanceof ApiError ? phase.error.message : phase.error}
          title="Nothing was created:"
        />
      )}
      <RowProblems problems={problems} />
      {phase.step === 'done' && (
        <div class="bulk-result" role="status">
          <p>
            Created {phase.result.created} codes (batch <code>{phase.result.batchId}</code>).{' '}
            <Link to="/codes">See them in the codes</Link>.
          </p>
          <ul>
            {phase.result.codes.slice(0, LISTED).map((code) => (
              <li key={code.id}>
                <Link to={`/codes/${code.id}`}>{code.id}</Link> {describeContent(code.type, code.content)}
              </li>
            ))}
            {phase.result.created > LISTED && <li>and {phase.result.created - LISTED} more</li>}
          </ul>
        </div>
      )}
    </section>
  );
}
