import { payloadFor, type StaticType } from './content-types.ts';
import type { Code } from './model.ts';

export function scanUrl(publicBaseUrl: string, slug: string): string {
  return `${publicBaseUrl}/${slug}`;
}

/** The exact text a code's image encodes: the scan URL of a url code, else its content's payload. */
export function payloadOf(code: Pick<Code, 'type' | 'content' | 'slug'>, publicBaseUrl: string): string {
  if (code.type === 'url') return scanUrl(publicBaseUrl, code.slug!);
  return payloadFor(code.type as StaticType, code.content as never);
}
