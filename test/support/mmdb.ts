// A tiny MMDB writer for the tests: IPv4 networks mapped to records, written in the MaxMind DB
// format (https://maxmind.github.io/MaxMind-DB/), so the service's own reader (maxmind, in
// scans/client-info.ts) reads it as it reads DB-IP's or MaxMind's files. No npm package writes
// MMDB files (the npm registry has readers only), and a 64 MB city database has no place in a
// test. Supports what the records need: maps, UTF-8 strings, unsigned integers and arrays; no
// pointers (each record is written whole), record size 24, networks that do not overlap.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type Value = string | number | Value[] | { [key: string]: Value };

function control(type: number, size: number): Buffer {
  const head: number[] = [];
  let tail: number[] = [];
  if (size < 29) head.push(size);
  else if (size < 285) [head[0], tail] = [29, [size - 29]];
  else if (size < 65_821) [head[0], tail] = [30, [(size - 285) >> 8, (size - 285) & 0xff]];
  else throw new Error('value too large for this writer');
  const first = type <= 7 ? (type << 5) | head[0]! : head[0]!;
  return Buffer.from(type <= 7 ? [first, ...tail] : [first, type - 7, ...tail]);
}

function uint(type: number, n: number): Buffer {
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
  return Buffer.concat([control(type, bytes.length), Buffer.from(bytes)]);
}

function encode(value: Value): Buffer {
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([control(2, bytes.length), bytes]);
  }
  if (typeof value === 'number') return uint(value < 2 ** 32 ? 6 : 9, value);
  if (Array.isArray(value)) return Buffer.concat([control(11, value.length), ...value.map(encode)]);
  const entries = Object.entries(value);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, v]) => [encode(k), encode(v)])]);
}

type Child = number | { data: number } | null;

/** Writes an IPv4 MMDB mapping each CIDR to its record; returns the file's path. */
export function writeMmdb(networks: Record<string, Record<string, Value>>, databaseType = 'test-city'): string {
  const nodes: Array<[Child, Child]> = [[null, null]];
  const data: Buffer[] = [];
  let dataSize = 0;
  for (const [cidr, record] of Object.entries(networks)) {
    const [address, bitsText] = cidr.split('/');
    const bits = Number(bitsText);
    const ip = address!.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
    const encoded = encode(record);
    const ref = { data: dataSize };
    data.push(encoded);
    dataSize += encoded.length;
    let node = 0;
    for (let i = 0; i < bits; i++) {
      const bit = Math.floor(ip / 2 ** (31 - i)) % 2;
      if (i === bits - 1) {
        nodes[node]![bit] = ref;
        break;
      }
      let next = nodes[node]![bit];
      if (typeof next !== 'number') {
        if (next !== null) throw new Error(`${cidr} overlaps another network`);
        next = nodes.push([null, null]) - 1;
        nodes[node]![bit] = next;
      }
      node = next;
    }
  }
  const count = nodes.length;
  const recordOf = (child: Child) =>
    child === null ? count : typeof child === 'number' ? child : count + 16 + child.data;
  const tree = Buffer.alloc(count * 6);
  nodes.forEach(([left, right], i) => {
    tree.writeUIntBE(recordOf(left), i * 6, 3);
    tree.writeUIntBE(recordOf(right), i * 6 + 3, 3);
  });
  const metadata = encode({
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    build_epoch: Math.floor(Date.now() / 1000),
    database_type: databaseType,
    description: { en: 'test database' },
    ip_version: 4,
    languages: ['en'],
    node_count: count,
    record_size: 24,
  });
  const file = join(mkdtempSync(join(tmpdir(), 'mmdb-')), `${databaseType}.mmdb`);
  writeFileSync(
    file,
    Buffer.concat([
      tree,
      Buffer.alloc(16),
      ...data,
      Buffer.from([0xab, 0xcd, 0xef]),
      Buffer.from('MaxMind.com'),
      metadata,
    ]),
  );
  return file;
}

/**
 * The test city database: documentation ranges (RFC 5737), one per shape of record the service
 * reads: ip-location-db's (country_code, state1, city) and GeoLite2's (names under "en").
 */
export function writeTestCityDb(): string {
  return writeMmdb({
    // ip-location-db / DB-IP Lite City shape
    '192.0.2.0/24': { country_code: 'US', state1: 'California', state2: '', city: 'San Jose', postcode: '' },
    // GeoLite2 City shape
    '198.51.100.0/25': {
      country: { iso_code: 'DE', names: { en: 'Germany' } },
      subdivisions: [{ iso_code: 'BY', names: { en: 'Bavaria', de: 'Bayern' } }],
      city: { names: { en: 'Munich', de: 'München' } },
    },
    // A city without a region
    '198.51.100.128/25': { country_code: 'SG', state1: '', city: 'Singapore' },
    // Known country, no region or city: not placed
    '203.0.113.0/24': { country_code: 'FR', state1: '', city: '' },
  });
}
