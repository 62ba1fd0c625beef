// Visitor identity without storing an address. Two derived values:
// - the split key, stable across days, so a person keeps the same A/B variant; computed per
//   scan and never stored;
// - the stored visitor hash, an HMAC under a random salt that rotates every UTC day, so unique
//   scans can be counted within a day and nobody can recompute or join hashes across days.
import { createHash, createHmac } from 'node:crypto';
import { DAY_MS } from '../../shared/time.ts';

export function splitKey(ip: string | null, userAgent: string | undefined): string {
  return createHash('sha256')
    .update(`${ip ?? ''}|${userAgent ?? ''}`)
    .digest('hex')
    .slice(0, 32);
}

export function visitorHash(salt: string, ip: string | null, userAgent: string | undefined): string {
  return createHmac('sha256', salt)
    .update(`${ip ?? ''}|${userAgent ?? ''}`)
    .digest('hex')
    .slice(0, 32);
}

let lastDay = { start: 0, name: '1970-01-01' };

/** The UTC day an instant falls in, as the salt table keys it (remembered: batches share a day). */
export function utcDay(at: number): string {
  if (at < lastDay.start || at >= lastDay.start + DAY_MS) {
    const start = at - (((at % DAY_MS) + DAY_MS) % DAY_MS);
    lastDay = { start, name: new Date(start).toISOString().slice(0, 10) };
  }
  return lastDay.name;
}
