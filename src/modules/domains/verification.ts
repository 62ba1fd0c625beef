// Self-service proof of control: a TXT record `_qr-verify.<hostname>` whose value is
// `qr-verify=<token>`, looked up through the system resolver (node:dns). The lookup is a
// function handed in (services.ts), so tests answer it from a map and never touch the network.
import { Resolver } from 'node:dns/promises';
import { verificationOf, type Domain } from './model.ts';

/** TXT lookup: each record as its character-strings (node:dns's resolveTxt shape). */
export type ResolveTxt = (name: string) => Promise<string[][]>;

/** The system resolver, with a short timeout: a verify call waits on it. */
export function systemResolveTxt(): ResolveTxt {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  return (name) => resolver.resolveTxt(name);
}

/** Codes the resolver reports for a name that simply has no such record. */
const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

/** null when the record is there; otherwise what was expected and what was found instead. */
export async function checkTxtRecord(
  resolveTxt: ResolveTxt,
  domain: Pick<Domain, 'hostname' | 'token'>,
): Promise<string | null> {
  const { name, value } = verificationOf(domain);
  let records: string[][];
  try {
    records = await resolveTxt(name);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    if (NO_RECORD.has(code))
      return (
        `No TXT record was found at ${name}; create one with the value ${value} (DNS changes can take a while ` +
        `to appear).`
      );
    return `The TXT lookup of ${name} failed (${code}); try again later. Expected the value ${value}.`;
  }
  // A long TXT value arrives split into character-strings of at most 255 bytes.
  const values = records.map((chunks) => chunks.join(''));
  if (values.includes(value)) return null;
  const found = values.length > 0 ? `found ${values.map((v) => JSON.stringify(v)).join(', ')}` : 'found none';
  return `The TXT record at ${name} must be ${value}; ${found}.`;
}
