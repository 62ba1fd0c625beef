// One button per image format (PNG, SVG, PDF) that saves a file of that format: a code's image
// in the list, a batch's print-run ZIP after a bulk upload.
import { useState } from 'preact/hooks';
import { useT } from '../i18n/index.ts';
import { downloadFile } from './download.ts';

export const IMAGE_FORMATS = ['png', 'svg', 'pdf'] as const;

interface FormatDownloadsProps {
  /** The API path and file name for a format. */
  file: (format: string) => { path: string; filename: string };
  /** Said after the format in each button's accessible name, e.g. "of Spring poster". */
  what: string;
}

export function FormatDownloads({ file, what }: FormatDownloadsProps) {
  const t = useT();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function save(format: string) {
    setBusy(format);
    setProblem(null);
    try {
      const { path, filename } = file(format);
      await downloadFile(path, filename);
    } catch (err) {
      setProblem(t.common.notDownloaded((err as Error).message));
    } finally {
      setBusy(null);
    }
  }

  return (
    <span class="format-downloads">
      {IMAGE_FORMATS.map((format) => (
        <button key={format} type="button" class="secondary" disabled={busy !== null} onClick={() => void save(format)}>
          {format.toUpperCase()}
          <span class="visually-hidden"> {what}</span>
        </button>
      ))}
      {problem && (
        <span class="field-messages" role="alert">
          {problem}
        </span>
      )}
    </span>
  );
}
