// Kutt's API list of links (GET /api/v2/links): `{ limit, skip, total, data: [...] }`, or the
// items of several pages as one array. Each item: address (the slug), target, description,
// created_at, visit_count, domain (null for the instance's own), link (the short URL), password
// (whether one is set: the list never holds it, so such a link is reported, not opened to all).
import { emptyRow, readCount, readDate, readShortUrl, text, type ImportRow } from '../model.ts';
import { at, readJsonList } from './json-list.ts';

export function parseKuttJson(content: string): ImportRow[] {
  const items = readJsonList('kutt_json', content, (json) => at(json, 'data'), 'data');
  return items.map((item, index) => {
    const row = emptyRow(index + 1);
    row.destination = text(item.target);
    row.slug = text(item.address);
    if (!row.slug) row.problems.push('has no address');
    row.host = readShortUrl(row, item.link, 'link')?.host ?? text(item.domain);
    row.title = text(item.description);
    row.createdAt = readDate(row, item.created_at, 'created_at');
    row.scans = readCount(row, item.visit_count, 'visit_count');
    if (item.password === true) row.problems.push('is password-protected at Kutt, and the export holds no password');
    return row;
  });
}
