// Bitly's CSV export of links. Its header has varied (`Long URL` or `long_url`, `Bitlink` or
// `link`, `Total Clicks` or `clicks`), so each field is found by any of its names. A link with a
// custom back-half keeps that one: it is the link people were given.
import { cell, readCsvTable, requireColumns } from '../csv-table.ts';
import { emptyRow, readCount, readDate, readShortUrl, splitTags, text, type ImportRow } from '../model.ts';

const COLUMNS = {
  destination: ['Long URL', 'long_url', 'Original URL', 'Destination URL'],
  link: ['Bitlink', 'link', 'Short URL', 'Short link', 'id'],
  custom: ['Custom Bitlinks', 'custom_bitlinks', 'Custom back-half', 'Custom Bitlink'],
  title: ['Title'],
  tags: ['Tags'],
  created: ['Created', 'created_at', 'Created Date', 'Date Created', 'Creation Date'],
  clicks: ['Total Clicks', 'clicks', 'Total Engagements', 'Engagements'],
};

export function parseBitlyCsv(content: string): ImportRow[] {
  const table = readCsvTable('bitly_csv', content);
  const at = requireColumns('bitly_csv', table, COLUMNS, ['destination', 'link']);
  return table.records.map(({ row: number, cells }) => {
    const row = emptyRow(number);
    row.destination = text(cell(cells, at.destination));
    // Custom bitlinks are listed with commas or spaces between them; the first is the one kept.
    const custom = text(cell(cells, at.custom))?.split(/[\s,|]+/)[0];
    const short = readShortUrl(row, custom ?? cell(cells, at.link), custom ? 'custom bitlink' : 'bitlink');
    if (short) Object.assign(row, short);
    else if (row.problems.length === 0) row.problems.push('has no bitlink');
    row.title = text(cell(cells, at.title));
    row.tags = splitTags(cell(cells, at.tags), /[,;|]/);
    row.createdAt = readDate(row, cell(cells, at.created), 'created date');
    row.scans = readCount(row, cell(cells, at.clicks), 'clicks');
    return row;
  });
}
