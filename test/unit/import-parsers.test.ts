import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PARSERS } from '../../src/modules/imports/parse.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/imports/${name}`, import.meta.url), 'utf8');

describe('import parsers', () => {
  it('reads a Bitly CSV export: the custom back-half over the bitlink, quoted cells, clicks with separators', () => {
    const rows = PARSERS.bitly_csv(fixture('bitly.csv'));
    expect(rows.map((r) => [r.row, r.host, r.slug, r.scans])).toEqual([
      [2, 'go.acme.test', 'spring-menu', 1204],
      [3, 'bit.ly', '4kLmNop', 87],
      [4, 'go.acme.test', 'berlin-2024', 1530],
      [5, 'go.acme.test', 'flyer', 15],
    ]);
    expect(rows[0]).toMatchObject({
      title: 'Spring menu',
      tags: ['print', 'menu'],
      destination: 'https://example.com/menu/spring?utm_source=poster',
      createdAt: new Date('2024-03-05T14:22:10Z'),
      problems: [],
    });
    expect(rows[2]!.title).toBe('Event, Berlin');
  });

  it('reads a Shlink CSV export: the short URL’s host for the default domain, tags split on |', () => {
    const rows = PARSERS.shlink_csv(fixture('shlink.csv'));
    expect(rows[0]).toMatchObject({
      row: 2,
      host: 's.acme.test',
      slug: 'launch',
      tags: ['launch', 'print'],
      createdAt: new Date('2024-01-15T09:12:00Z'),
      scans: 3021,
    });
    expect(rows[1]).toMatchObject({ host: 'go.acme.test', slug: 'pricing', title: null, tags: [] });
  });

  it('reads Shlink’s REST list and Kutt’s API list', () => {
    const shlink = PARSERS.shlink_json(fixture('shlink.json'));
    expect(shlink.map((r) => [r.row, r.host, r.slug, r.scans])).toEqual([
      [1, 's.acme.test', 'summer-24', 845],
      [2, 'go.acme.test', 'Kq3Zx', 0],
      [3, 'old.example.net', 'legacy', 19],
    ]);
    expect(shlink[0]).toMatchObject({ title: 'Summer campaign', tags: ['summer', 'print'] });
    const kutt = PARSERS.kutt_json(fixture('kutt.json'));
    expect(kutt.map((r) => [r.host, r.slug, r.title, r.scans])).toEqual([
      ['go.acme.test', 'handbook', 'Employee handbook', 77],
      ['go.acme.test', 'team-offsite', null, 3],
      ['s.acme.test', 'Hx81k', 'Newsletter signup', 0],
    ]);
    expect(kutt[1]!.problems).toEqual(['is password-protected at Kutt, and the export holds no password']);
  });

  it('reads a YOURLS export: no host, local timestamps as UTC, a bad date reported on its row', () => {
    const rows = PARSERS.yourls_csv(fixture('yourls.csv'));
    expect(rows[0]).toMatchObject({
      host: null,
      slug: 'menu',
      createdAt: new Date('2023-06-01T12:00:00Z'),
      scans: 512,
    });
    expect(rows[3]).toMatchObject({ row: 5, problems: ["timestamp 'not a date' is not a date"] });
  });

  it('refuses a file that is not the format, naming what is missing', () => {
    expect(() => PARSERS.shlink_csv(fixture('bitly.csv'))).toThrow(/its header has no 'shortCode'/);
    expect(() => PARSERS.kutt_json('{"shortUrls": {}}')).toThrow(/no list of links at data/);
    expect(() => PARSERS.shlink_json('not json')).toThrow(/the JSON cannot be read/);
  });
});
