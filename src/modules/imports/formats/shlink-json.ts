// Shlink's REST API list of short URLs (GET /rest/v3/short-urls): `{ shortUrls: { data: [...],
// pagination } }`, or the items of several pages as one array. Each item: shortCode, shortUrl,
// longUrl, dateCreated, visitsSummary.total (visitsCount before Shlink 3.3), tags, domain, title.
import { emptyRow, readCount, readDate, readShortUrl, text, type ImportRow } from '../model.ts';
import { at, readJsonList } from './json-list.ts';

export function parseShlinkJson(content: string): ImportRow[] {
  const items = readJsonList('shlink_json', content, (json) => at(json, 'shortUrls', 'data'), 'shortUrls.data');
  return items.map((item, index) => {
    const row = emptyRow(index + 1);
    row.destination = text(item.longUrl);
    row.slug = text(item.shortCode);
    if (!row.slug) row.problems.push('has no shortCode');
    row.host = readShortUrl(row, item.shortUrl, 'shortUrl')?.host ?? text(item.domain);
    row.title = text(item.title);
    row.tags = Array.isArray(item.tags) ? item.tags.filter((t): t is string => typeof t === 'string') : [];
    row.createdAt = readDate(row, item.dateCreated, 'dateCreated');
    row.scans = readCount(row, at(item, 'visitsSummary', 'total') ?? item.visitsCount, 'visits');
    return row;
  });
}
