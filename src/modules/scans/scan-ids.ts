// Scan ids, given by the scan route before it answers: a random prefix per process start and a
// counter, so an id costs an increment rather than random bytes per scan. The prefix's 72 random
// bits keep processes (and restarts of one) apart; the ids only need to be unique, not secret.
import { randomBytes } from 'node:crypto';

/** 9 random bytes in base64url. */
const PREFIX_LENGTH = 12;

export function createScanIds(): () => string {
  const prefix = randomBytes(9).toString('base64url');
  let next = 0;
  return () => prefix + (next++).toString(36);
}

/** An id's process prefix and counter; null for an id not made by createScanIds. */
export function splitScanId(id: string): { prefix: string; n: number } | null {
  const counter = id.slice(PREFIX_LENGTH);
  if (!/^[0-9a-z]{1,10}$/.test(counter)) return null;
  return { prefix: id.slice(0, PREFIX_LENGTH), n: parseInt(counter, 36) };
}
