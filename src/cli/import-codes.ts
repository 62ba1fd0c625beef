// `cli codes import <file.csv> --url <base> --key <api key> [--batch 10000]`: streams a CSV file
// to POST /v1/codes/bulk in batches, each sent as CSV with the header. A first pass checks
// the CSV and its header and counts the rows, so nothing is sent for a broken file. Each batch
// carries an Idempotency-Key made of the file path, the batch number and the batch's content,
// so re-running an import that failed replays the batches already created instead of
// creating them again (within the server's 24 hours of key retention).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse';
import { stringify } from 'csv-stringify/sync';
import { CSV_PARSE_OPTIONS, csvRowNumber, headerProblems, normalizeHeader } from '../modules/bulk/index.ts';
import { MAX_BULK_CODES } from '../modules/bulk/index.ts';
import { createProgress } from './progress.ts';

export const IMPORT_USAGE = 'cli codes import <file.csv> --url <base url> --key <api key> [--batch <rows, 1-10000>]';
const LISTED_ERRORS = 20;

interface Options {
  file: string;
  endpoint: string;
  key: string;
  batchSize: number;
}

interface BatchResult {
  batchId: string;
  created: number;
  replayed: boolean;
  firstRow: number;
  lastRow: number;
}

class ImportFailed extends Error {}

type Output = Writable & { isTTY?: boolean };

function parseOptions(argv: string[]): Options | string {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      batch: { type: 'string', default: String(MAX_BULK_CODES) },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1) return 'codes import needs exactly one CSV file';
  if (!values.url || !/^https?:\/\//.test(values.url) || !URL.canParse(values.url))
    return 'codes import needs --url <base url>, e.g. http://localhost:3000';
  if (!values.key) return 'codes import needs --key <api key>';
  const batchSize = /^\d+$/.test(values.batch) ? Number(values.batch) : NaN;
  if (!(batchSize >= 1 && batchSize <= MAX_BULK_CODES))
    return `--batch must be a whole number from 1 to ${MAX_BULK_CODES}`;
  return {
    file: resolve(positionals[0]!),
    endpoint: `${values.url.replace(/\/+$/, '')}/v1/codes/bulk`,
    key: values.key,
    batchSize,
  };
}

/** CSV records of the file, read as a stream (header first); stopping early closes the file. */
function records(file: string): AsyncIterable<string[]> {
  const input = createReadStream(file);
  const parser = parse(CSV_PARSE_OPTIONS);
  input.on('error', (err) => parser.destroy(err));
  parser.on('close', () => input.destroy());
  return input.pipe(parser);
}

/** First pass: the header (as written) and the number of rows; throws on unreadable or malformed CSV. */
async function scan(file: string): Promise<{ header: string[] | null; rows: number }> {
  let header: string[] | null = null;
  let rows = 0;
  for await (const record of records(file)) {
    if (header) rows += 1;
    else header = record;
  }
  return { header, rows };
}

async function* batchesOf(file: string, size: number): AsyncGenerator<string[][]> {
  let batch: string[][] = [];
  let header = true;
  for await (const record of records(file)) {
    if (header) {
      header = false;
      continue;
    }
    batch.push(record);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function batchKey(file: string, batchNumber: number, body: string): string {
  return `csv-import-${batchNumber}-${sha256(`${file}\n${batchNumber}\n${sha256(body)}`).slice(0, 40)}`;
}

/**
 * Server row numbers count from the batch's own header; file rows from the file's. Only paths
 * are renumbered (`row 7.content`, `row 7: …`), not prose such as "the header as row 1".
 */
const toFileRows = (text: string, offset: number) =>
  text.replace(/\brow (\d+)(?=\.\w|:)/g, (_, n: string) => `row ${Number(n) + offset}`);

async function sendBatch(
  options: Options,
  body: string,
  key: string,
): Promise<{ batchId: string; created: number; replayed: boolean } | { failure: string }> {
  let response: Response;
  try {
    response = await fetch(options.endpoint, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${options.key}`,
        'content-type': 'text/csv; charset=utf-8',
        'idempotency-key': key,
      },
      body,
    });
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return { failure: `request failed: ${(err as Error).message}${cause ? ` (${cause})` : ''}` };
  }
  const text = await response.text();
  let json: ProblemOrBatch | null = null;
  try {
    json = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's error page, say): shown as text below.
  }
  if (response.status === 201 && json?.batch_id !== undefined && json.created !== undefined) {
    return {
      batchId: json.batch_id,
      created: json.created,
      replayed: response.headers.get('idempotent-replayed') === 'true',
    };
  }
  if (!json?.detail) return { failure: `HTTP ${response.status}: ${text.slice(0, 500)}` };
  const errors: { path: string; message: string }[] = Array.isArray(json.errors) ? json.errors : [];
  const lines = [`HTTP ${response.status} ${json.title ?? ''}: ${json.detail}`.replace(/ :/, ':')];
  for (const e of errors.slice(0, LISTED_ERRORS)) lines.push(`  ${e.path}: ${e.message}`);
  if (errors.length > LISTED_ERRORS) lines.push(`  … and ${errors.length - LISTED_ERRORS} more`);
  if (response.status === 413) lines.push(`  (each batch is sent as one request: try a smaller --batch)`);
  return { failure: lines.join('\n') };
}

/** What the bulk endpoint answers: the batch made, or a problem (RFC 9457) with the rows at fault. */
interface ProblemOrBatch {
  batch_id?: string;
  created?: number;
  title?: string;
  detail?: string;
  errors?: unknown;
}

async function runImport(options: Options, out: Output, err: Writable): Promise<BatchResult[]> {
  const { header, rows: total } = await scan(options.file).catch((e: Error) => {
    throw new ImportFailed(`Cannot read ${options.file} as CSV: ${e.message}`);
  });
  const problems = header ? headerProblems(normalizeHeader(header)) : [{ message: 'the file is empty' }];
  if (problems.length > 0)
    throw new ImportFailed(
      `The first row of ${options.file} must be a header: ${problems.map((p) => p.message).join('; ')}.`,
    );
  if (total === 0) throw new ImportFailed(`${options.file} has a header but no rows.`);

  const batches = Math.ceil(total / options.batchSize);
  const progress = createProgress(out, total);
  const results: BatchResult[] = [];
  let done = 0;
  let number = 0;
  for await (const rows of batchesOf(options.file, options.batchSize)) {
    number += 1;
    const firstRow = csvRowNumber(done);
    const lastRow = firstRow + rows.length - 1;
    const label = `batch ${number}/${batches} (rows ${firstRow}-${lastRow})`;
    const body = stringify([header!, ...rows]);
    progress.working(`sending ${label}`);
    const answer = await sendBatch(options, body, batchKey(options.file, number, body));
    if ('failure' in answer) {
      progress.end();
      const created =
        results.length === 0
          ? 'No batch was created.'
          : `${results.length === 1 ? 'Batch 1' : `Batches 1-${results.length}`} (rows 2-${csvRowNumber(done - 1)}) ` +
            `${results.length === 1 ? 'was' : 'were'} created: ${results.map((r) => r.batchId).join(', ')}.`;
      err.write(
        `Import failed at ${label}; none of its rows was ` +
          `created.\n${toFileRows(answer.failure, firstRow - 2)}\n${created}\nFix the file and run the same ` +
          `command again: batches already created are not created twice.\n`,
      );
      throw new ImportFailed('');
    }
    done += rows.length;
    results.push({ ...answer, firstRow, lastRow });
    progress.step(done, `${label} ${answer.replayed ? 'replayed (created by an earlier run)' : 'created'}`);
  }
  progress.end();
  return results;
}

/** Runs `codes import`; answers the exit code. */
export async function importCodes(
  argv: string[],
  out: Output = process.stdout,
  err: Writable = process.stderr,
): Promise<number> {
  let options: Options | string;
  try {
    options = parseOptions(argv);
  } catch (e) {
    options = (e as Error).message;
  }
  if (typeof options === 'string') {
    err.write(`${options}\nUsage: ${IMPORT_USAGE}\n`);
    return 2;
  }
  const started = Date.now();
  try {
    const results = await runImport(options, out, err);
    const created = results.reduce((sum, r) => sum + r.created, 0);
    const replayed = results.filter((r) => r.replayed).length;
    const seconds = (Date.now() - started) / 1000;
    out.write(
      `Imported ${options.file}: ${created} codes created in ${results.length} ` +
        `batches${replayed ? ` (${replayed} replayed from an earlier run)` : ''}, ${seconds.toFixed(1)} s.\n`,
    );
    for (const r of results)
      out.write(
        `  ${r.batchId}  rows ${r.firstRow}-${r.lastRow}  ${r.created} codes${r.replayed ? '  (replayed)' : ''}\n`,
      );
    return 0;
  } catch (e) {
    if (!(e instanceof ImportFailed)) throw e;
    if (e.message) err.write(`${e.message}\n`);
    return 1;
  }
}
