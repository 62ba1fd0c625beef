// What the audit log says of a code: the fields a change touched, each with its old and new
// value, under the API's names (a url code's content is its `destination`). The password is
// never recorded, only whether the code has one.
import type { Code } from './model.ts';
import { presentLifecycle } from './lifecycle.ts';

/** The audited fields of a code, as the API names them. */
function auditedFields(code: Code): Record<string, unknown> {
  const { state: _derived, ...lifecycle } = presentLifecycle(code.lifecycle);
  return {
    [code.type === 'url' ? 'destination' : 'content']: code.content,
    name: code.name,
    notes: code.notes,
    slug: code.slug,
    domain: code.domain,
    forward_query: code.forwardQuery,
    app_links: code.appLinks,
    utm: code.utm,
    preview: code.preview,
    page: code.page,
    password_protected: code.passwordHash !== null,
    tags: code.tags,
    ...lifecycle,
    design: code.design,
    routing: code.routing,
  };
}

/** JSON with object keys sorted: a design read back may list its keys in another order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** The fields that differ between two versions of a code, each as `{ old, new }`. */
export function codeChanges(before: Code, after: Code): Record<string, { old: unknown; new: unknown }> {
  const old = auditedFields(before);
  const now = auditedFields(after);
  const changes: Record<string, { old: unknown; new: unknown }> = {};
  for (const [field, value] of Object.entries(now)) {
    if (canonical(value) !== canonical(old[field])) changes[field] = { old: old[field], new: value };
  }
  return changes;
}

/** A created or deleted code, named enough to be recognised in the log. */
export const codeSummary = (code: Code) => ({
  type: code.type,
  name: code.name,
  slug: code.slug,
  domain: code.domain,
  ...(code.type === 'url' ? { destination: code.content } : {}),
});
