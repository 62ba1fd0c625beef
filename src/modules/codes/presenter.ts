// The public JSON of a code, shared by REST answers (and, later, webhook payloads).
import { presentInlineRule, type InlineRuleJson } from '../routing/presenter.ts';
import { resolveDesign, type Code, type ResolvedDesign } from './model.ts';
import { payloadOf, scanUrl } from './payload.ts';
import type { CodeContent } from './schemas.ts';

export interface CodeJson {
  id: string;
  object: 'code';
  type: string;
  content: CodeContent;
  /** The exact text the image encodes. */
  payload: string;
  design: ResolvedDesign;
  routing: { enabled: boolean; rules: InlineRuleJson[] };
  /** Null for static codes, which have no scan URL. */
  scan_url: string | null;
  created_at: string;
  updated_at: string;
}

export function presentCode(code: Code, publicBaseUrl: string): CodeJson {
  return {
    id: code.id,
    object: 'code',
    type: code.type,
    content: code.content,
    payload: payloadOf(code, publicBaseUrl),
    design: resolveDesign(code.design),
    routing: {
      enabled: code.routing.enabled,
      rules: code.routing.rules.map(presentInlineRule),
    },
    scan_url: code.slug ? scanUrl(publicBaseUrl, code.slug) : null,
    created_at: code.createdAt.toISOString(),
    updated_at: code.updatedAt.toISOString(),
  };
}
