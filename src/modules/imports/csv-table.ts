// A CSV export read as a table: its header names the columns, in whatever case and spacing the
// exporting service used, and each format asks for a column by any of its known names.
import { CsvError } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { CSV_PARSE_OPTIONS } from '../bulk/index.ts';
import { unreadable, type ImportFormat } from './model.ts';

/** `Long URL`, `long_url` and `longUrl` are one name: `longurl`. */
const keyOf = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

export interface CsvTable {
  /** Data records with their row number (the header is row 1). */
  records: { row: number; cells: string[] }[];
  /** The index of the first column called any of `names`, or -1. */
  column(...names: string[]): number;
}

export function readCsvTable(format: ImportFormat, content: string): CsvTable {
  let rows: string[][];
  try {
    rows = parse(content, { ...CSV_PARSE_OPTIONS, relax_column_count: true }) as string[][];
  } catch (err) {
    if (err instanceof CsvError) throw unreadable(format, `the CSV cannot be read (${err.message})`);
    throw err;
  }
  const [header, ...data] = rows;
  if (!header) throw unreadable(format, 'the file is empty');
  const keys = header.map(keyOf);
  return {
    records: data.map((cells, index) => ({ row: index + 2, cells })),
    column: (...names) => {
      for (const name of names) {
        const at = keys.indexOf(keyOf(name));
        if (at >= 0) return at;
      }
      return -1;
    },
  };
}

/** The indexes of the columns a format needs; a 422 naming the first one missing. */
export function requireColumns<K extends string>(
  format: ImportFormat,
  table: CsvTable,
  columns: Record<K, string[]>,
  required: NoInfer<K>[],
): Record<K, number> {
  const found = Object.fromEntries(
    Object.entries<string[]>(columns).map(([key, names]) => [key, table.column(...names)]),
  ) as Record<K, number>;
  for (const key of required) {
    if (found[key] < 0) throw unreadable(format, `its header has no ${columns[key].map((n) => `'${n}'`).join(' or ')}`);
  }
  return found;
}

/** A record's cell, or undefined for a column the file does not have. */
export const cell = (cells: string[], index: number): string | undefined => (index >= 0 ? cells[index] : undefined);
