// CSV of what a chart shows, downloaded from the page: a header row, then one row per number,
// quoted as RFC 4180 says (fields with a comma, quote or line break in quotes, quotes doubled,
// CRLF between rows), and text a spreadsheet would run as a formula defused with a leading
// apostrophe by the same rule as the server's CSV exports.
import { defuseFormula } from '../../../src/shared/spreadsheet.ts';
import { useT } from '../i18n/index.ts';

export type CsvCell = string | number | null;

const field = (cell: CsvCell): string => {
  if (cell === null) return '';
  // Numbers are written as numbers: a negative count cannot occur, and "-1" is no formula.
  const text = typeof cell === 'number' ? String(cell) : defuseFormula(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** The rows, the first one the header, as one CSV text. */
export function toCsv(rows: CsvCell[][]): string {
  return rows.map((row) => row.map(field).join(',')).join('\r\n') + '\r\n';
}

/** A file name from the parts of what it holds: "scans-by-country-2026-05-01-2026-05-31.csv". */
export function csvName(...parts: string[]): string {
  return `${parts.join('-').replace(/[^A-Za-z0-9._-]+/g, '_')}.csv`;
}

/** Saves the CSV as a file, through a blob URL and a link's download attribute (no server). */
export function downloadCsv(filename: string, rows: CsvCell[][]): void {
  const url = URL.createObjectURL(new Blob([toCsv(rows)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own reference to the blob by now.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The button each chart has: rows are built only when it is pressed. */
export function CsvButton({ filename, rows, label }: { filename: string; rows: () => CsvCell[][]; label: string }) {
  const t = useT();
  return (
    <button
      type="button"
      class="secondary csv-download"
      // The name begins with the visible words (WCAG 2.5.3, label in name), then says which chart.
      aria-label={t.analytics.csv.label(label)}
      data-filename={filename}
      onClick={() => downloadCsv(filename, rows())}
    >
      {t.analytics.csv.button}
    </button>
  );
}
