// The public JSON of a code, shared by REST answers (and, later, webhook payloads).
import { presentInlineRule, type InlineRuleJson } from '../routing/presenter.ts';
import { resolveDesign, type Code, type ResolvedDesign } from './model.ts';

export interface CodeJson {
  id: string;
  object: 'code';
  type: string;
  content: string;
  design: ResolvedDesign;
  routing: { enabled: boolean; rules: InlineRuleJson[] };
  scan_url: string;
  created_at: string;
  updated_at: string;
}

export function scanUrl(publicBaseUrl: string, slug: string): string {
  return `${publicBaseUrl}/${slug}`;
}

export function presentCode(code: Code, publicBaseUrl: string): CodeJson {
  return {
    id: code.id,
    object: 'code',
    type: code.type,
    content: code.content,
    design: resolveDesign(code.design),
    routing: {
      enabled: code.routing.enabled,
      rules: code.routing.rules.map(presentInlineRule),
    },
    scan_url: scanUrl(publicBaseUrl, code.slug),
    created_at: code.createdAt.toISOString(),
    updated_at: code.updatedAt.toISOString(),
  };
}
