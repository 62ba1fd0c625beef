// What every format's parser makes of an export: one normalized row per link, numbered as the
// file numbers it, carrying what the parser could not read instead of failing the whole file.
import { DomainError } from '../../shared/errors.ts';

export const IMPORT_FORMATS = ['bitly_csv', 'shlink_csv', 'shlink_json', 'yourls_csv', 'kutt_json'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export interface ImportRow {
  /** CSV: the row in the file, the header being row 1. JSON: the link's place in the list, from 1. */
  row: number;
  /** The destination (long URL), as exported; checked later like any code's. */
  destination: string | null;
  /** The host of the exported short URL, lowercased; null when the export names none (YOURLS). */
  host: string | null;
  /** The short URL's path: the slug the printed links use. */
  slug: string | null;
  title: string | null;
  tags: string[];
  createdAt: Date | null;
  /** The scan (click, visit) total the export gives, or null when it has none. */
  scans: number | null;
  /** What the parser could not read in this row; a row with problems is reported, never created. */
  problems: string[];
}

/** A file that cannot be read at all (not CSV or JSON, a required column missing): a 422. */
export function unreadable(format: ImportFormat, why: string): DomainError {
  return new DomainError('validation_failed', `This is not a ${format} export: ${why}.`, [
    { path: 'content', message: why },
  ]);
}

/** A row with nothing read yet. */
export const emptyRow = (row: number): ImportRow => ({
  row,
  destination: null,
  host: null,
  slug: null,
  title: null,
  tags: [],
  createdAt: null,
  scans: null,
  problems: [],
});

/** Empty cells and blank strings are absent values. */
export const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

const LOCAL_DATE_TIME = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;
const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * A date as exports write it: ISO 8601 with a zone (`+0000` too), a date and time without one
 * (YOURLS's `2024-03-05 14:22:10`, read as UTC), a bare date, or Unix seconds.
 */
export function readDate(row: ImportRow, raw: unknown, label: string): Date | null {
  if (raw === null || raw === undefined || raw === '') return null;
  let date: Date | null = null;
  if (typeof raw === 'number' && Number.isFinite(raw)) date = new Date(raw * 1000);
  else if (typeof raw === 'string') {
    const value = raw.trim();
    const local = LOCAL_DATE_TIME.exec(value);
    if (/^\d{9,10}$/.test(value)) date = new Date(Number(value) * 1000);
    else if (/^\d{4}-\d{2}-\d{2}$/.test(value)) date = new Date(`${value}T00:00:00Z`);
    else if (local) date = new Date(`${local[1]}T${local[2]}Z`);
    else if (ISO_WITH_ZONE.test(value)) date = new Date(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  }
  if (!date || Number.isNaN(date.getTime())) {
    row.problems.push(`${label} '${String(raw)}' is not a date`);
    return null;
  }
  if (date.getTime() > Date.now()) {
    row.problems.push(`${label} '${String(raw)}' is in the future`);
    return null;
  }
  return date;
}

/** A scan total: a whole number, thousands separators allowed (`1,204`). */
export function readCount(row: ImportRow, raw: unknown, label: string): number | null {
  if (raw === null || raw === undefined || raw === '') return null;
  const value = typeof raw === 'number' ? raw : Number(String(raw).trim().replace(/[,_ ]/g, ''));
  if (!Number.isSafeInteger(value) || value < 0) {
    row.problems.push(`${label} '${String(raw)}' is not a whole number of scans`);
    return null;
  }
  return value;
}

/** A URL path decoded; a malformed escape is left as written (the slug check reports it). */
function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The host and slug of an exported short URL (`https://bit.ly/abc`, or `bit.ly/abc` without a scheme). */
export function readShortUrl(row: ImportRow, raw: unknown, label: string): { host: string; slug: string } | null {
  const value = text(raw);
  if (!value) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `https://${value}`;
  const url = URL.canParse(withScheme) ? new URL(withScheme) : null;
  const slug = url ? decodedPath(url.pathname.replace(/^\/+/, '')) : '';
  if (!url || slug === '') {
    row.problems.push(`${label} '${value}' is not a short URL with a path`);
    return null;
  }
  return { host: url.hostname.toLowerCase(), slug };
}

/** Tag names from one cell, split on any of `separators`, blanks dropped. */
export const splitTags = (raw: unknown, separators: RegExp): string[] =>
  (text(raw) ?? '')
    .split(separators)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
