// A saved code's image as a file to print (PNG, SVG or PDF at a chosen size), and its scan URL
// to the clipboard. The image comes from GET /v1/codes/:id/image with the tab's credential
// (a link cannot send it), saved through a blob: URL.
import { useState } from 'preact/hooks';
import { Field, Select } from '../components/field.tsx';
import { ErrorBox } from '../components/messages.tsx';
import { currentBearer } from '../session.ts';

const FORMATS = ['png', 'svg', 'pdf'] as const;
const FORMAT_LABELS: Record<string, string> = { png: 'PNG', svg: 'SVG (vector)', pdf: 'PDF (vector)' };

async function fetchImage(id: string, format: string, size: number): Promise<Blob> {
  const bearer = currentBearer();
  if (!bearer) throw new Error('Sign in first.');
  const res = await fetch(`/v1/codes/${encodeURIComponent(id)}/image?format=${format}&size=${size}`, {
    headers: { Authorization: `Bearer ${bearer}` },
  });
  if (!res.ok) {
    const problem = (await res.json().catch(() => null)) as { detail?: string } | null;
    throw new Error(problem?.detail ?? `The server answered ${res.status}.`);
  }
  return res.blob();
}

export function ImageDownload({ id, scanUrl }: { id: string; scanUrl: string | null }) {
  const [format, setFormat] = useState<string>('png');
  const [size, setSize] = useState(1024);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [copied, setCopied] = useState(false);

  async function download() {
    setBusy(true);
    setError(null);
    try {
      const url = URL.createObjectURL(await fetchImage(id, format, size));
      const link = document.createElement('a');
      link.href = url;
      link.download = `${id}.${format}`;
      link.click();
      // The download has taken the bytes once the click is handled.
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  async function copy() {
    if (!scanUrl) return;
    try {
      await navigator.clipboard.writeText(scanUrl);
      setCopied(true);
    } catch (err) {
      setError(err);
    }
  }

  return (
    <div class="image-download">
      {scanUrl && (
        <p class="scan-url">
          {/* Not a link: following it would count as a scan. */}
          Scan URL: <code>{scanUrl}</code>{' '}
          <button type="button" class="secondary" onClick={() => void copy()}>
            {copied ? 'Copied' : 'Copy'}
          </button>
        </p>
      )}
      <Field label="Image format" id="download-format">
        <Select id="download-format" value={format} options={FORMATS} labels={FORMAT_LABELS} onChange={setFormat} />
      </Field>
      <Field label="Size (pixels; points for PDF)" id="download-size">
        <input
          id="download-size"
          type="number"
          min={64}
          max={4096}
          step={1}
          value={size}
          onInput={(e) => setSize(e.currentTarget.valueAsNumber)}
        />
      </Field>
      <button type="button" class="secondary" disabled={busy} onClick={() => void download()}>
        {busy ? 'Preparing…' : 'Download image'}
      </button>
      <ErrorBox error={error} title="Not downloaded:" />
    </div>
  );
}
