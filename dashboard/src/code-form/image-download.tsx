// A saved code's image as a file to print (PNG, SVG or PDF at a chosen size), and its scan URL
// to the clipboard. The image comes from GET /v1/codes/:id/image with the tab's credential
// (a link cannot send it), saved through a blob: URL.
import { useState } from 'preact/hooks';
import { Field, Select } from '../components/field.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { downloadFile } from '../components/download.ts';
import { IMAGE_FORMATS } from '../components/format-downloads.tsx';
import { ErrorBox } from '../components/messages.tsx';
import { useT } from '../i18n/index.ts';

export function ImageDownload({ id, scanUrl }: { id: string; scanUrl: string | null }) {
  const t = useT().editor.download;
  const [format, setFormat] = useState<string>('png');
  const [size, setSize] = useState(1024);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function download() {
    setBusy(true);
    setError(null);
    try {
      await downloadFile(`/v1/codes/${encodeURIComponent(id)}/image?format=${format}&size=${size}`, `${id}.${format}`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="image-download">
      {scanUrl && (
        <p class="scan-url">
          {/* Not a link: following it would count as a scan. */}
          {t.scanUrl} <code>{scanUrl}</code> <CopyButton text={scanUrl} what={t.scanUrlWhat} />
        </p>
      )}
      <Field label={t.format} id="download-format">
        <Select id="download-format" value={format} options={IMAGE_FORMATS} labels={t.formats} onChange={setFormat} />
      </Field>
      <Field label={t.size} id="download-size">
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
        {busy ? t.preparing : t.download}
      </button>
      <ErrorBox error={error} title={t.notDownloaded} />
    </div>
  );
}
