// Shlink's CSV export (its web client's "Export" of the short URL list): createdAt, domain,
// shortCode, shortUrl, longUrl, title, tags (separated by `|`), visits.
import { cell, readCsvTable, requireColumns } from '../csv-table.ts';
import { emptyRow, readCount, readDate, readShortUrl, splitTags, text, type ImportRow } from '../model.ts';

const COLUMNS = {
  created: ['createdAt'],
  domain: ['domain'],
  shortCode: ['shortCode'],
  shortUrl: ['shortUrl'],
  longUrl: ['longUrl'],
  title: ['title'],
  tags: ['tags'],
  visits: ['visits'],
};

export function parseShlinkCsv(content: string): ImportRow[] {
  const table = readCsvTable('shlink_csv', content);
  const at = requireColumns('shlink_csv', table, COLUMNS, ['shortCode', 'longUrl']);
  return table.records.map(({ row: number, cells }) => {
    const row = emptyRow(number);
    row.destination = text(cell(cells, at.longUrl));
    row.slug = text(cell(cells, at.shortCode));
    if (!row.slug) row.problems.push('has no shortCode');
    // The short URL's host is the one printed, the default domain's included (its `domain` cell is empty).
    row.host = readShortUrl(row, cell(cells, at.shortUrl), 'shortUrl')?.host ?? text(cell(cells, at.domain));
    row.title = text(cell(cells, at.title));
    row.tags = splitTags(cell(cells, at.tags), /\|/);
    row.createdAt = readDate(row, cell(cells, at.created), 'createdAt');
    row.scans = readCount(row, cell(cells, at.visits), 'visits');
    return row;
  });
}
