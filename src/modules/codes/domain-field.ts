// A url code's `domain`: one of its account's verified domains (domains/), or null for the
// service's own. Checked here for shape only; the service asks the domains module (a function
// services.ts hands in) whether the account may use it.
import { z } from 'zod';
import { DomainError } from '../../shared/errors.ts';

export const codeDomainSchema = z
  .string({ error: 'must be a hostname or null' })
  .trim()
  .min(1, 'must not be empty; null for the service’s own domain')
  .max(253, 'must be at most 253 characters')
  .nullable()
  .meta({
    description:
      'Url codes: one of the account’s verified domains (GET /domains), so the scan URL is ' +
      '`https://<domain>/<slug>`; null or absent for the service’s own domain. Slugs are unique per domain. ' +
      'Changing it moves the code (new scan URL and image) and retires the slug on the old domain.',
    example: 'go.example.com',
  });

/**
 * The stored spelling of a verified domain of the account, or null when the account has no
 * such verified domain (unknown, pending, or another account's: one answer, so nothing leaks).
 */
export type VerifiedDomainOf = (accountId: string, hostname: string) => Promise<string | null>;

export const notAVerifiedDomain = (path: string) =>
  new DomainError('validation_failed', `${path}: is not a verified domain of this account (see GET /domains).`, [
    { path, message: 'is not a verified domain of this account' },
  ]);
