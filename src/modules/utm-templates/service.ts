// An account's UTM templates: saved sets of UTM fields a new url code can start from
// (`utm_template_id` on create, which copies them: codes/service.ts asks utmOf).
import { notFound, validationFailed } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import type { Principal } from '../../shared/principal.ts';
import { UTM_FIELDS, type Utm } from '../codes/index.ts';
import type { CreateUtmTemplateInput, UpdateUtmTemplateInput } from './schemas.ts';
import type { UtmTemplate, UtmTemplatesStore } from './store.ts';

/** Templates per account: enough for every channel a team tags, few enough to list in one page. */
export const MAX_UTM_TEMPLATES = 100;

/** The UTM fields of a body, those given (null on update removes one from `base`). */
function utmOfBody(body: Partial<Record<keyof Utm, string | null | undefined>>, base: Utm = {}): Utm {
  const utm: Utm = { ...base };
  for (const field of UTM_FIELDS) {
    const value = body[field];
    if (value === null) delete utm[field];
    else if (value !== undefined) utm[field] = value;
  }
  return utm;
}

export function createUtmTemplatesService(store: UtmTemplatesStore) {
  async function get(principal: Principal, id: string): Promise<UtmTemplate> {
    const template = await store.findById(principal.accountId, id);
    if (!template) throw notFound('utm_template', id);
    return template;
  }

  return {
    /** Saves a template; past MAX_UTM_TEMPLATES a 422. */
    async create(principal: Principal, body: CreateUtmTemplateInput): Promise<UtmTemplate> {
      if ((await store.count(principal.accountId)) >= MAX_UTM_TEMPLATES)
        throw validationFailed([
          { path: 'name', message: `the account has ${MAX_UTM_TEMPLATES} UTM templates, the most it may have` },
        ]);
      const now = new Date();
      const template: UtmTemplate = {
        id: newId('utm'),
        accountId: principal.accountId,
        name: body.name,
        utm: utmOfBody(body),
        createdAt: now,
        updatedAt: now,
      };
      await store.insert(template);
      return template;
    },

    list: (principal: Principal) => store.list(principal.accountId),

    /** The caller's template, or a 404 (also for another account's id). */
    get,

    /** Renames it or changes its fields (null removes one; one must remain). Codes made from it keep theirs. */
    async update(principal: Principal, id: string, patch: UpdateUtmTemplateInput): Promise<UtmTemplate> {
      const current = await get(principal, id);
      const utm = utmOfBody(patch, current.utm);
      if (Object.keys(utm).length === 0)
        throw validationFailed([{ path: 'utm_source', message: 'a template keeps at least one utm_ field' }]);
      const template = { ...current, name: patch.name ?? current.name, utm, updatedAt: new Date() };
      await store.update(template);
      return template;
    },

    async remove(principal: Principal, id: string): Promise<void> {
      if (!(await store.delete(principal.accountId, id))) throw notFound('utm_template', id);
    },

    /** The fields of the account's template `id`, or null when it has none of that id (codes' 422). */
    async utmOf(accountId: string, id: string): Promise<Utm | null> {
      return (await store.findById(accountId, id))?.utm ?? null;
    },
  };
}

export type UtmTemplatesService = ReturnType<typeof createUtmTemplatesService>;
