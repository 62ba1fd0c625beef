// A caller's address hashed as the scans hash visitors: an HMAC under the UTC day's salt (the
// salt table the scan writer keeps, deleted after two days). The audit log records who acted
// from which address with it: equal hashes within a day tell the same address, and once the
// salt is gone nobody, the operator included, can recompute or brute-force the address (a
// stable keyed hash over the 2^32 IPv4 addresses could be, by whoever holds the key).
import { utcDay, visitorHash } from './visitor.ts';

export type HashAddress = (address: string | null) => Promise<string | null>;

export function createAddressHasher(saltForDay: (day: string) => Promise<string>, now = Date.now): HashAddress {
  // The day's salt, read once per day and process (requests of a day share it).
  let current: { day: string; salt: Promise<string> } | null = null;
  return async (address) => {
    if (!address) return null;
    const day = utcDay(now());
    if (current?.day !== day) {
      const salt = saltForDay(day);
      current = { day, salt };
      // A failed read is tried again by the next request rather than remembered.
      salt.catch(() => {
        if (current?.salt === salt) current = null;
      });
    }
    // No user agent: the address alone, so one address reads the same from any client.
    return visitorHash(await current.salt, address, undefined);
  };
}
