// CSV input for bulk creation: one code per row under a header naming the columns. Rows become
// the same create bodies a JSON bulk call carries, and the service's `codes.<index>.<field>`
// error paths are renamed to `row <n>.<column>`, where row 1 is the header (so row 2 is the
// first code, as a spreadsheet numbers it).
import type { Readable } from 'node:stream';
import { CsvError, parse, type Options } from 'csv-parse';
import { DomainError, type FieldError } from '../../shared/errors.ts';
import { CSV_TAG_SEPARATOR } from '../tags/index.ts';

export const CSV_COLUMNS = [
  'type',
  'content',
  'slug',
  'domain',
  'forward_query',
  'name',
  'notes',
  'tags',
  'status',
  'paused_destination',
  'expires_at',
  'expired_destination',
  'max_scans',
  'fg_color',
  'bg_color',
  'style',
  'error_correction',
  'logo_url',
] as const;
type Column = (typeof CSV_COLUMNS)[number];
const DESIGN_COLUMNS = new Set<Column>(['fg_color', 'bg_color', 'style', 'error_correction', 'logo_url']);

/** Shared by the server and `cli codes import`, so both read a file the same way. */
export const CSV_PARSE_OPTIONS: Options = { bom: true, skip_empty_lines: true };

/** Row numbers count the header as row 1. */
export const csvRowNumber = (index: number) => index + 2;

/** What is wrong with a header row: unknown, repeated and missing columns, each under `header.<name>`. */
export function headerProblems(header: string[]): FieldError[] {
  const problems: FieldError[] = [];
  const seen = new Set<string>();
  for (const name of header) {
    if (!(CSV_COLUMNS as readonly string[]).includes(name)) {
      problems.push({
        path: `header.${name}`,
        message: `unknown column '${name}'; the columns are ${CSV_COLUMNS.join(', ')}`,
      });
    } else if (seen.has(name)) {
      problems.push({ path: `header.${name}`, message: `column '${name}' appears more than once` });
    }
    seen.add(name);
  }
  if (!seen.has('content')) problems.push({ path: 'header.content', message: "missing column 'content'" });
  return problems;
}

function headerError(problems: FieldError[]): DomainError {
  return new DomainError(
    'validation_failed',
    `The first CSV row must be a header naming the columns (content, and any of ` +
      `${CSV_COLUMNS.filter((c) => c !== 'content').join(', ')}): ${problems.map((p) => p.message).join('; ')}.`,
    problems,
  );
}

/**
 * One row as a create body. Empty cells are left out; `type` defaults to url in the service;
 * forward_query is `true` or `false`; tags are names separated by `|` (commas separate cells); max_scans a whole
 * number.
 * A static type's content is its JSON object, e.g. {"text":"hello"}.
 */
function rowToBody(header: string[], record: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const design: Record<string, string> = {};
  header.forEach((name, i) => {
    const cell = record[i] ?? '';
    if (cell.trim() === '') return;
    if (DESIGN_COLUMNS.has(name as Column)) design[name] = cell;
    // true/false in any case; anything else stays text, for the service to refuse by name.
    else if (name === 'tags')
      body.tags = cell
        .split(CSV_TAG_SEPARATOR)
        .map((tag) => tag.trim())
        .filter((tag) => tag !== '');
    else if (name === 'forward_query')
      body[name] = /^(true|false)$/i.test(cell.trim()) ? cell.trim().toLowerCase() === 'true' : cell;
    else if (name === 'max_scans') body[name] = /^-?\d+$/.test(cell.trim()) ? Number(cell.trim()) : cell;
    else body[name] = cell;
  });
  if (
    typeof body.content === 'string' &&
    body.type !== undefined &&
    body.type !== 'url' &&
    body.content.trimStart().startsWith('{')
  ) {
    try {
      body.content = JSON.parse(body.content);
    } catch {
      // Left as text: the service reports that this type needs an object.
    }
  }
  if (Object.keys(design).length > 0) body.design = design;
  return body;
}

function drain(body: Readable, budget: number): void {
  let left = budget;
  body.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) body.destroy();
  });
  body.resume();
}

const tooLarge = (limitBytes: number) =>
  new DomainError('payload_too_large', `The request body is larger than the limit of ${limitBytes} bytes.`);

/** Header names are matched trimmed and case-insensitively. */
export const normalizeHeader = (record: string[]) => record.map((name) => name.trim().toLowerCase());

/**
 * Reads a CSV body into `{ codes: [...] }`, counting bytes as they arrive: 413 past
 * `limitBytes`, 400 for malformed CSV (csv-parse's message), 422 for a wrong header. On an
 * error the stream is not destroyed, so the client still gets the answer.
 */
export async function readCsvCodes(body: Readable, limitBytes: number): Promise<{ codes: Record<string, unknown>[] }> {
  const parser = parse(CSV_PARSE_OPTIONS);
  const state: { header: string[] | null; failure: unknown } = { header: null, failure: null };
  const codes: Record<string, unknown>[] = [];
  parser.on('readable', () => {
    let record: string[] | null;
    while (state.failure === null && (record = parser.read()) !== null) {
      if (state.header) {
        codes.push(rowToBody(state.header, record));
        continue;
      }
      state.header = normalizeHeader(record);
      const problems = headerProblems(state.header);
      if (problems.length > 0) parser.destroy((state.failure = headerError(problems)));
    }
  });
  const parsed = new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', reject);
  }).catch((err: unknown) => {
    state.failure ??= err;
  });

  let bytes = 0;
  for await (const chunk of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > limitBytes) state.failure ??= tooLarge(limitBytes);
    if (state.failure !== null) break;
    parser.write(chunk);
  }
  if (state.failure === null) {
    parser.end();
    await parsed;
  }
  if (state.failure !== null) {
    body.unpipe();
    parser.destroy();
    if (bytes > limitBytes) body.pause();
    // Answered before the end of the body: the rest (within the limit) is read and dropped, or
    // the client's next request on this keep-alive connection would meet it and be reset.
    else drain(body, limitBytes - bytes);
    if (state.failure instanceof CsvError)
      throw new DomainError('bad_request', `The request body is not valid CSV: ${state.failure.message}`);
    throw state.failure;
  }
  if (!state.header) throw headerError([{ path: 'header.content', message: "missing column 'content'" }]);
  if (codes.length === 0)
    throw new DomainError('validation_failed', 'The CSV has a header but no rows.', [
      { path: 'row 2', message: 'is missing: the CSV needs at least one code' },
    ]);
  return { codes };
}

/** `codes.4.design.fg_color` -> `row 6.fg_color`; `codes.4.content.text` -> `row 6.content.text`. */
function rowPath(path: string): string {
  const match = /^codes\.(\d+)(?:\.(.*))?$/.exec(path);
  if (!match) return path;
  const row = `row ${csvRowNumber(Number(match[1]))}`;
  const field = match[2]?.replace(/^design\.(?=\w)/, '');
  return field ? `${row}.${field}` : row;
}

/** The service's validation error with paths (in `errors` and the detail) naming CSV rows and columns. */
export function withCsvRows(err: unknown): unknown {
  if (!(err instanceof DomainError) || !err.fieldErrors?.some((e) => e.path.startsWith('codes.'))) return err;
  const rows = (text: string) => text.replace(/\bcodes\.\d+(?:\.[\w.]+)?/g, rowPath);
  const detail = rows(err.message).replace(/ codes are invalid/, ' rows are invalid');
  return new DomainError(
    err.kind,
    `${detail} Paths name CSV rows as 'row <n>.<column>', counting the header as row 1.`,
    err.fieldErrors.map((e) => ({ path: rowPath(e.path), message: rows(e.message) })),
  );
}
