// Bulk creation on accounts' own domains: each item's `domain` checked (a verified domain of the
// account, else a 422 naming the item), and slugs grouped per domain, since they are unique per
// domain (the service's own is null).
import { validationFailed, type FieldError } from '../../shared/errors.ts';
import type { VerifiedDomainOf } from '../codes/index.ts';
import type { CreateCodeInput } from '../codes/index.ts';

/** Each item's domain (null: the service's own), in item order; a 422 naming every item refused. */
export async function resolveItemDomains(
  accountId: string,
  bodies: CreateCodeInput[],
  verifiedDomainOf: VerifiedDomainOf,
): Promise<(string | null)[]> {
  const asked = new Map<string, string | null>();
  for (const body of bodies)
    if (body.domain && !asked.has(body.domain)) asked.set(body.domain, await verifiedDomainOf(accountId, body.domain));
  const errors: FieldError[] = [];
  const domains = bodies.map((body, index) => {
    if (!body.domain) return null;
    const domain = asked.get(body.domain)!;
    if (!domain) errors.push({ path: `codes.${index}.domain`, message: 'is not a verified domain of this account' });
    return domain;
  });
  if (errors.length > 0) throw validationFailed(errors);
  return domains;
}

/** A slug and its domain as one key (hostnames and slugs hold no slash). */
export const slugKey = (domain: string | null, slug: string) => `${domain ?? ''}/${slug}`;

/** The indexes of `bodies` picked by `pick`, grouped by their domain. */
export function groupByDomain(
  bodies: CreateCodeInput[],
  domains: (string | null)[],
  pick: (body: CreateCodeInput) => boolean,
): Map<string | null, number[]> {
  const groups = new Map<string | null, number[]>();
  bodies.forEach((body, index) => {
    if (!pick(body)) return;
    const domain = domains[index]!;
    const group = groups.get(domain);
    if (group) group.push(index);
    else groups.set(domain, [index]);
  });
  return groups;
}
