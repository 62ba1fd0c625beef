import type { Queryable } from '../../db/transaction.ts';
import { fromJson, toJson } from '../../db/rows.ts';
import { newId } from '../../shared/ids.ts';
import type { Rule, RuleConditions, RuleInput, RuleType } from './schemas.ts';

interface RuleRow {
  id: string;
  code_id: string;
  priority: number;
  position: number;
  type: string;
  conditions: string;
  destination: string;
}

function toRule(row: RuleRow): Rule {
  return {
    id: row.id,
    type: row.type as RuleType,
    priority: row.priority,
    conditions: fromJson<RuleConditions>(row.conditions)!,
    destination: row.destination,
  };
}

export function createRoutingStore(db: Queryable) {
  return {
    /** Replaces every rule of a code; call inside the transaction that changes the code. */
    async replaceRules(codeId: string, rules: RuleInput[], q: Queryable = db): Promise<Rule[]> {
      await q('routing_rules').where({ code_id: codeId }).delete();
      if (rules.length === 0) return [];
      const now = Date.now();
      const rows = rules.map((rule, position) => ({
        id: newId('rule'),
        code_id: codeId,
        priority: rule.priority,
        position,
        type: rule.type,
        conditions: toJson(rule.conditions),
        destination: rule.destination,
        created_at: now,
      }));
      await q('routing_rules').insert(rows);
      return rows.map(toRule).sort(byPriority);
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
