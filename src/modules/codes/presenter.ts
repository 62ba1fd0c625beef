// The public JSON of a code, shared by REST answers (and, later, webhook payloads).
import { ruleToInlineCondition } from '../routing/schemas.ts';
import { resolveDesign, type Code, type ResolvedDesign } from './model.ts';

export interface CodeJson {
  id: string;
  object: 'code';
  type: string;
  content: string;
  design: ResolvedDesign;
  routing: { enabled: boolean; rules: { id: string; condition: string; destination: string }[] };
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
      rules: code.routing.rules.map((rule) => ({
        id: rule.id,
        condition: ruleToInlineCondition(rule),
        destination: rule.destination,
      })),
    },
    scan_url: scanUrl(publicBaseUrl, code.slug),
    created_at: code.createdAt.toISOString(),
    updated_at: code.updatedAt.toISOString(),
  };
}
