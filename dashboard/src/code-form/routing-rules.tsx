// Routing rules of a url code: the first rule whose condition matches a scan sends it to the
// rule's destination. Rules are added, moved (their order is their priority) and removed here;
// the whole list is saved with the code and replaces the old one in one transaction. New rules
// come from RuleBuilder.
import { FieldMessages } from '../components/messages.tsx';
import type { FieldProblem } from '../graphql.ts';
import { useT } from '../i18n/index.ts';
import type { RuleForm } from './model.ts';
import { RuleBuilder } from './rule-builder.tsx';

interface RoutingRulesProps {
  enabled: boolean;
  rules: RuleForm[];
  problems: FieldProblem[];
  onChange: (patch: { routingEnabled?: boolean; rules?: RuleForm[] }) => void;
}

export function RoutingRules({ enabled, rules, problems, onChange }: RoutingRulesProps) {
  const t = useT().editor.routing;
  const move = (from: number, to: number) => {
    const next = [...rules];
    next.splice(to, 0, ...next.splice(from, 1));
    onChange({ rules: next });
  };

  return (
    <fieldset>
      <legend>{t.legend}</legend>
      <label class="inline">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) => onChange({ routingEnabled: e.currentTarget.checked })}
        />{' '}
        {t.apply}
      </label>
      {rules.length === 0 && <p class="empty">{t.none}</p>}
      <ol class="rules">
        {rules.map((rule, i) => (
          <li key={rule.key} class="rule" data-path={`routing.rules.${i}`}>
            <span class="rule-text">
              <code>{rule.condition}</code> →{' '}
              {rule.weights ? rule.weights.map((w) => `${w.destination} (${w.weight})`).join(', ') : rule.destination}
            </span>
            <span class="rule-actions">
              <button
                type="button"
                class="secondary"
                aria-label={t.moveUp(i + 1)}
                disabled={i === 0}
                onClick={() => move(i, i - 1)}
              >
                ↑
              </button>
              <button
                type="button"
                class="secondary"
                aria-label={t.moveDown(i + 1)}
                disabled={i === rules.length - 1}
                onClick={() => move(i, i + 1)}
              >
                ↓
              </button>
              <button
                type="button"
                class="danger"
                aria-label={t.removeRule(i + 1)}
                onClick={() => onChange({ rules: rules.filter((r) => r !== rule) })}
              >
                {t.remove}
              </button>
            </span>
            <FieldMessages problems={problems} path={`routing.rules.${i}`} />
          </li>
        ))}
      </ol>
      <RuleBuilder
        onAdd={(rule) =>
          // A first rule is meant to apply: a code made without rules (through the API) has them off.
          onChange({ rules: [...rules, rule], ...(rules.length === 0 ? { routingEnabled: true } : {}) })
        }
      />
      <FieldMessages problems={problems.filter((p) => !/^routing\.rules\.\d/.test(p.path))} path="routing" />
    </fieldset>
  );
}
