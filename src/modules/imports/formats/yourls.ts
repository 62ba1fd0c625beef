// YOURLS's export: the rows of its `yourls_url` table as CSV (what its export plugins and a
// database dump write): keyword, url, title, timestamp, ip, clicks. One YOURLS install serves
// one domain and the rows do not name it, so they land on the domain the import is given.
import { cell, readCsvTable, requireColumns } from '../csv-table.ts';
import { emptyRow, readCount, readDate, text, type ImportRow } from '../model.ts';

const COLUMNS = {
  keyword: ['keyword'],
  url: ['url'],
  title: ['title'],
  timestamp: ['timestamp'],
  clicks: ['clicks'],
};

export function parseYourlsCsv(content: string): ImportRow[] {
  const table = readCsvTable('yourls_csv', content);
  const at = requireColumns('yourls_csv', table, COLUMNS, ['keyword', 'url']);
  return table.records.map(({ row: number, cells }) => {
    const row = emptyRow(number);
    row.destination = text(cell(cells, at.url));
    row.slug = text(cell(cells, at.keyword));
    if (!row.slug) row.problems.push('has no keyword');
    row.title = text(cell(cells, at.title));
    row.createdAt = readDate(row, cell(cells, at.timestamp), 'timestamp');
    row.scans = readCount(row, cell(cells, at.clicks), 'clicks');
    return row;
  });
}
