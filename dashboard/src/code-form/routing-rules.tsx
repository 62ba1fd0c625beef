// Routing rules of a url code: the first rule whose condition matches a scan sends it to the
// rule's destination. Rules are added, moved (their order is their priority) and removed here;
// the whole list is saved with the code and replaces the old one in one transaction.
import { useState } from 'preact/hooks';
import { Field, Select } from '../components/field.tsx';
import { FieldMessages } from '../components/messages.tsx';
import type { FieldProblem } from '../graphql.ts';
import type { RuleForm } from './model.ts';

/** Each condition type, with an example of its value in the inline syntax the API takes. */
const DIMENSIONS: Record<string, { label: string; example: string }> = {
  country: { label: 'Country', example: 'DE,AT' },
  device: { label: 'Device', example: 'ios,android' },
  language: { label: 'Language', example: 'de,fr' },
  time: { label: 'Time', example: 'mon-fri 09:00-17:30 Europe/Berlin' },
  ip: { label: 'IP range', example: '203.0.113.0/24' },
  query: { label: 'Query parameter', example: 'src=flyer' },
  after: { label: 'From', example: '2026-12-01T00:00:00Z' },
  before: { label: 'Until', example: '2027-01-01T00:00:00Z' },
};

interface RoutingRulesProps {
  enabled: boolean;
  rules: RuleForm[];
  problems: FieldProblem[];
  onChange: (patch: { routingEnabled?: boolean; rules?: RuleForm[] }) => void;
}

let newKeys = 0;

export function RoutingRules({ enabled, rules, problems, onChange }: RoutingRulesProps) {
  const [dimension, setDimension] = useState('country');
  const [value, setValue] = useState('');
  const [destination, setDestination] = useState('');
  const [addProblem, setAddProblem] = useState<string | null>(null);

  const move = (from: number, to: number) => {
    const next = [...rules];
    next.splice(to, 0, ...next.splice(from, 1));
    onChange({ rules: next });
  };

  function add() {
    if (!value.trim())
      return setAddProblem(
        `Give the ${DIMENSIONS[dimension]!.label.toLowerCase()} to match, e.g. ${DIMENSIONS[dimension]!.example}.`,
      );
    if (!/^https?:\/\/\S+$/.test(destination.trim()))
      return setAddProblem('Give the destination as an http:// or https:// URL.');
    setAddProblem(null);
    onChange({
      rules: [
        ...rules,
        {
          key: `new-${++newKeys}`,
          condition: `${dimension}:${value.trim()}`,
          destination: destination.trim(),
          weights: null,
        },
      ],
    });
    setValue('');
    setDestination('');
  }

  return (
    <fieldset>
      <legend>Routing rules</legend>
      <label class="inline">
        <input
          type="checkbox"
          checked={enabled}
          onChange={(e) => onChange({ routingEnabled: e.currentTarget.checked })}
        />{' '}
        Apply the rules (otherwise every scan goes to the destination URL)
      </label>
      {rules.length === 0 && <p class="empty">No rules: every scan goes to the destination URL.</p>}
      <ol class="rules">
        {rules.map((rule, i) => (
          <li key={rule.key} class="rule">
            <span class="rule-text">
              <code>{rule.condition}</code> →{' '}
              {rule.weights ? rule.weights.map((w) => `${w.destination} (${w.weight})`).join(', ') : rule.destination}
            </span>
            <span class="rule-actions">
              <button
                type="button"
                class="secondary"
                aria-label={`Move rule ${i + 1} up`}
                disabled={i === 0}
                onClick={() => move(i, i - 1)}
              >
                ↑
              </button>
              <button
                type="button"
                class="secondary"
                aria-label={`Move rule ${i + 1} down`}
                disabled={i === rules.length - 1}
                onClick={() => move(i, i + 1)}
              >
                ↓
              </button>
              <button
                type="button"
                class="danger"
                aria-label={`Remove rule ${i + 1}`}
                onClick={() => onChange({ rules: rules.filter((r) => r !== rule) })}
              >
                Remove
              </button>
            </span>
            <FieldMessages problems={problems} path={`routing.rules.${i}`} />
          </li>
        ))}
      </ol>
      <div class="add-rule">
        <Field label="When" id="rule-dimension">
          <Select
            id="rule-dimension"
            value={dimension}
            options={Object.keys(DIMENSIONS)}
            labels={Object.fromEntries(Object.entries(DIMENSIONS).map(([k, d]) => [k, d.label]))}
            onChange={setDimension}
          />
        </Field>
        <Field label="is" id="rule-value">
          <input
            id="rule-value"
            placeholder={DIMENSIONS[dimension]!.example}
            value={value}
            onInput={(e) => setValue(e.currentTarget.value)}
          />
        </Field>
        <Field label="send to" id="rule-destination">
          <input
            id="rule-destination"
            type="url"
            placeholder="https://example.com/de"
            value={destination}
            onInput={(e) => setDestination(e.currentTarget.value)}
          />
        </Field>
        <button type="button" class="secondary" onClick={add}>
          Add rule
        </button>
      </div>
      {addProblem && (
        <p class="field-messages" role="alert">
          {addProblem}
        </p>
      )}
      <FieldMessages problems={problems.filter((p) => !/^routing\.rules\.\d/.test(p.path))} path="routing" />
    </fieldset>
  );
}
