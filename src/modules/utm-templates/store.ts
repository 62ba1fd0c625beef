// SQL for the utm_templates table.
import type { Queryable } from '../../db/transaction.ts';
import { fromJson, fromMillis, toJson, toMillis } from '../../db/rows.ts';
import type { Utm } from '../codes/index.ts';

export interface UtmTemplate {
  id: string;
  accountId: string;
  name: string;
  utm: Utm;
  createdAt: Date;
  updatedAt: Date;
}

interface UtmTemplateRow {
  id: string;
  account_id: string;
  name: string;
  utm: string;
  created_at: number | string;
  updated_at: number | string;
}

const templateOf = (row: UtmTemplateRow): UtmTemplate => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  utm: fromJson<Utm>(row.utm) ?? {},
  createdAt: fromMillis(row.created_at),
  updatedAt: fromMillis(row.updated_at),
});

export function createUtmTemplatesStore(db: Queryable) {
  return {
    async insert(template: UtmTemplate): Promise<void> {
      await db('utm_templates').insert({
        id: template.id,
        account_id: template.accountId,
        name: template.name,
        utm: toJson(template.utm),
        created_at: toMillis(template.createdAt),
        updated_at: toMillis(template.updatedAt),
      });
    },

    /** The account's templates, oldest first (a few: MAX_UTM_TEMPLATES). */
    async list(accountId: string): Promise<UtmTemplate[]> {
      const rows: UtmTemplateRow[] = await db('utm_templates')
        .where({ account_id: accountId })
        .orderBy([{ column: 'created_at' }, { column: 'id' }]);
      return rows.map(templateOf);
    },

    async count(accountId: string): Promise<number> {
      const row = await db('utm_templates').where({ account_id: accountId }).count({ n: '*' }).first();
      return Number(row?.n ?? 0);
    },

    /** The account's template, or null (also for another account's id). */
    async findById(accountId: string, id: string): Promise<UtmTemplate | null> {
      const row: UtmTemplateRow | undefined = await db('utm_templates').where({ account_id: accountId, id }).first();
      return row ? templateOf(row) : null;
    },

    async update(template: UtmTemplate): Promise<void> {
      await db('utm_templates')
        .where({ account_id: template.accountId, id: template.id })
        .update({ name: template.name, utm: toJson(template.utm), updated_at: toMillis(template.updatedAt) });
    },

    async delete(accountId: string, id: string): Promise<boolean> {
      return (await db('utm_templates').where({ account_id: accountId, id }).delete()) > 0;
    },
  };
}

export type UtmTemplatesStore = ReturnType<typeof createUtmTemplatesStore>;
