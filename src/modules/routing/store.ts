import type { Queryable } from '../../db/transaction.ts';
import { fromJson, toJson } from '../../db/rows.ts';
import { newId } from '../../shared/ids.ts';
import type { Conditions, RuleType } from './conditions.ts';
import type { Rule, RuleInput } from './rule.ts';

interface RuleRow {
  id: string;
  code_id: string;
  priority: number;
  position: number;
  type: string;
  conditions: string;
  destination: string | null;
  created_at?: number;
}

function toRule(row: RuleRow): Rule {
  return {
    id: row.id,
    type: row.type as RuleType,
    priority: row.priority,
    conditions: fromJson<Conditions>(row.conditions)!,
    destination: row.destination,
  };
}

/** Rows for a code's rules, positions in list order; an id is kept when `keep` allows it, else made here. */
function ruleRows(
  codeId: string,
  rules: RuleInput[],
  now: number,
  keep: (ruleId: string) => boolean = () => false,
): RuleRow[] {
  return rules.map((rule, position) => ({
    id: rule.ruleId !== undefined && keep(rule.ruleId) ? rule.ruleId : newId('rule'),
    code_id: codeId,
    priority: rule.priority,
    position,
    type: rule.type,
    conditions: toJson(rule.conditions),
    destination: rule.destination,
    created_at: now,
  }));
}

/** Rows per multi-row INSERT, well under SQLite's bound-variable limit. */
const RULE_INSERT_CHUNK = 500;

export function createRoutingStore(db: Queryable) {
  return {
    /** Replaces every rule of a code; call inside the transaction that changes the code. */
    async replaceRules(codeId: string, rules: RuleInput[], q: Queryable = db): Promise<Rule[]> {
      // A rule sent back with the id of one of this code's rules keeps it (once: a repeated id
      // gets a new one); any other id is not this code's to take.
      const current = new Set(
        (await q('routing_rules').where({ code_id: codeId }).select('id')).map((row: { id: string }) => row.id),
      );
      await q('routing_rules').where({ code_id: codeId }).delete();
      if (rules.length === 0) return [];
      const rows = ruleRows(codeId, rules, Date.now(), (ruleId) => current.delete(ruleId));
      await q('routing_rules').insert(rows);
      return rows.map(toRule).sort(byPriority);
    },

    /** Inserts the rules of many new codes at once; returns each code's rules in evaluation order. */
    async insertForNewCodes(
      entries: { codeId: string; rules: RuleInput[] }[],
      q: Queryable = db,
    ): Promise<Map<string, Rule[]>> {
      const now = Date.now();
      const byCode = new Map<string, Rule[]>();
      const rows: RuleRow[] = [];
      for (const { codeId, rules } of entries) {
        const own = ruleRows(codeId, rules, now);
        rows.push(...own);
        byCode.set(codeId, own.map(toRule).sort(byPriority));
      }
      for (let i = 0; i < rows.length; i += RULE_INSERT_CHUNK)
        await q('routing_rules').insert(rows.slice(i, i + RULE_INSERT_CHUNK));
      return byCode;
    },

    /** Appends one rule; it sorts after existing rules of the same priority. */
    async insertRule(codeId: string, rule: RuleInput, q: Queryable = db): Promise<Rule> {
      const last = await q('routing_rules').where({ code_id: codeId }).max({ position: 'position' }).first();
      const row = {
        id: newId('rule'),
        code_id: codeId,
        priority: rule.priority,
        position: last?.position === null || last?.position === undefined ? 0 : Number(last.position) + 1,
        type: rule.type,
        conditions: toJson(rule.conditions),
        destination: rule.destination,
        created_at: Date.now(),
      };
      await q('routing_rules').insert(row);
      return toRule(row);
    },

    async maxPriority(codeId: string, q: Queryable = db): Promise<number> {
      const row = await q('routing_rules').where({ code_id: codeId }).max({ priority: 'priority' }).first();
      return row?.priority === null || row?.priority === undefined ? 0 : Number(row.priority);
    },

    async deleteRule(codeId: string, ruleId: string, q: Queryable = db): Promise<boolean> {
      return (await q('routing_rules').where({ code_id: codeId, id: ruleId }).delete()) > 0;
    },

    /** Rules of many codes in one query, each list in evaluation order. */
    async rulesForCodes(codeIds: string[], q: Queryable = db): Promise<Map<string, Rule[]>> {
      const byCode = new Map<string, Rule[]>(codeIds.map((id) => [id, []]));
      if (codeIds.length === 0) return byCode;
      const rows: RuleRow[] = await q('routing_rules')
        .whereIn('code_id', codeIds)
        .orderBy([{ column: 'priority' }, { column: 'position' }]);
      for (const row of rows) byCode.get(row.code_id)!.push(toRule(row));
      return byCode;
    },
  };
}

function byPriority(a: Rule, b: Rule): number {
  return a.priority - b.priority;
}

export type RoutingStore = ReturnType<typeof createRoutingStore>;
