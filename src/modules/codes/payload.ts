import { payloadFor, type StaticType } from './content-types.ts';
import type { Code } from './model.ts';

/** A slug's scan URL: on the account's own domain (always https), or on the service's. */
export function scanUrl(publicBaseUrl: string, slug: string, domain: string | null = null): string {
  return domain ? `https://${domain}/${slug}` : `${publicBaseUrl}/${slug}`;
}

/** A code as its image and scan URL need it; `domain` absent is the service's own. */
export type PayloadSource = Pick<Code, 'type' | 'content' | 'slug'> & { domain?: string | null };

/** The exact text a code's image encodes: the scan URL of a url code, else its content's payload. */
export function payloadOf(code: PayloadSource, publicBaseUrl: string): string {
  if (code.type === 'url') return scanUrl(publicBaseUrl, code.slug!, code.domain);
  return payloadFor(code.type as StaticType, code.content as never);
}
