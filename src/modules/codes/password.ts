// A code's password: what a scan must give before it redirects. Stored only as an argon2id hash
// (shared/password-hash.ts); the API says only whether a code has one.
import { z } from 'zod';

export { hashPassword, passwordMatches } from '../../shared/password-hash.ts';

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
