// One parser per export format, each a pure function from the file's text to normalized rows.
import { parseBitlyCsv } from './formats/bitly.ts';
import { parseKuttJson } from './formats/kutt.ts';
import { parseShlinkCsv } from './formats/shlink-csv.ts';
import { parseShlinkJson } from './formats/shlink-json.ts';
import { parseYourlsCsv } from './formats/yourls.ts';
import type { ImportFormat, ImportRow } from './model.ts';

export const PARSERS: Record<ImportFormat, (content: string) => ImportRow[]> = {
  bitly_csv: parseBitlyCsv,
  shlink_csv: parseShlinkCsv,
  shlink_json: parseShlinkJson,
  yourls_csv: parseYourlsCsv,
  kutt_json: parseKuttJson,
};
