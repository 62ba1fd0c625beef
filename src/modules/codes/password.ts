// A code's password: what a scan must give before it redirects. Stored only as an argon2id hash
// (@node-rs/argon2: OWASP's parameters, m=19 MiB, t=2, p=1, computed on libuv's thread pool so
// the event loop keeps answering scans meanwhile); the API says only whether a code has one.
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { z } from 'zod';

/** The longest password: long enough for a passphrase, short enough that hashing it stays cheap. */
export const MAX_PASSWORD_LENGTH = 128;

export const passwordSchema = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty; send null to remove the password')
  .max(MAX_PASSWORD_LENGTH, `must be at most ${MAX_PASSWORD_LENGTH} characters`)
  .meta({
    description:
      'Url codes: a password a scan must give on a small unlock page before it redirects (routing rules apply ' +
      `after the unlock). 1-${MAX_PASSWORD_LENGTH} characters; stored only as an argon2id hash and never ` +
      'returned (the code says `password_protected`). Null removes it.',
    example: 'spring-2026',
  });

/** The library's Algorithm.Argon2id: a const enum, which this project's compiler settings cannot read as a value. */
const ARGON2ID: Algorithm.Argon2id = 2;

/** The password's hash (an argon2id PHC string, under 100 characters). */
export const hashPassword = (password: string): Promise<string> => hash(password, { algorithm: ARGON2ID });

/** Whether `password` is the one `passwordHash` was made from (constant time in the library). */
export function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  return verify(passwordHash, password).catch(() => false);
}
