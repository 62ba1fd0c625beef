import { describe, expect, it } from 'vitest';
import { locationOf, utmTagger, withForwardedQuery } from '../../src/modules/scans/forward-query.ts';

describe('withForwardedQuery', () => {
  it.each([
    [
      'https://example.com/spring',
      'utm_source=flyer&utm_medium=print',
      'https://example.com/spring?utm_source=flyer&utm_medium=print',
    ],
    // The destination's own query first and as written; its own value wins over the scan's.
    [
      'https://example.com/s?q=a%20b&utm_source=site',
      'utm_source=flyer&x=1',
      'https://example.com/s?q=a%20b&utm_source=site&x=1',
    ],
    // A fragment stays last.
    ['https://example.com/p#top', 'a=1', 'https://example.com/p?a=1#top'],
    // Repeated and encoded parameters of the scan come along, encoded once.
    [
      'https://example.com/',
      'tag=a&tag=b&city=K%C3%B6ln&sp=a+b',
      'https://example.com/?tag=a&tag=b&city=K%C3%B6ln&sp=a+b',
    ],
    // Nothing to add: the destination as it was.
    ['https://example.com/s?utm_source=site', 'utm_source=flyer', 'https://example.com/s?utm_source=site'],
    ['https://example.com/s', '', 'https://example.com/s'],
  ])('%s + ?%s', (destination, query, expected) => {
    expect(withForwardedQuery(destination, query)).toBe(expected);
  });
});

describe('locationOf', () => {
  it('merges the code’s UTM fields, then the forwarded query, each keeping what came before', () => {
    const tag = utmTagger('utm_source=poster&utm_medium=print')!;
    const destination = 'https://example.com/s?utm_medium=web#top';
    // Twice each: the second answer comes from the tagger's memory and must be the same.
    for (let i = 0; i < 2; i++) {
      expect(locationOf(destination, tag, undefined)).toBe(
        'https://example.com/s?utm_medium=web&utm_source=poster#top',
      );
      expect(locationOf('https://example.de/', tag, 'utm_source=flyer&gclid=1')).toBe(
        'https://example.de/?utm_source=poster&utm_medium=print&gclid=1',
      );
    }
    expect(utmTagger(null)).toBeNull();
    expect(locationOf(destination, null, undefined)).toBe(destination);
  });
});
