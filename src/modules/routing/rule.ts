import type { Conditions, RuleType } from './conditions.ts';

/** A routing rule as stored and as the rules endpoints present it. */
export interface Rule {
  id: string;
  type: RuleType;
  /** Lower runs first; equal priorities keep the order in which rules were added. */
  priority: number;
  conditions: Conditions;
  /** Where a matching scan goes; null for a split rule, whose weights name the destinations. */
  destination: string | null;
}

/** A rule as the client writes it, before it has an id. */
export type RuleInput = Omit<Rule, 'id'>;

export interface Routing {
  enabled: boolean;
  /** In evaluation order. */
  rules: Rule[];
}
