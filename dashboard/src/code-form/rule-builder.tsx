// The "add a rule" part of the routing editor, in every shape the API takes (docs/routing.md):
// one or more conditions that must all match (joined by " & "), sending scans to one destination
// or splitting them by weight between 2 to 20 (an A/B test; conditions optional then).
import { useState } from 'preact/hooks';
import { Field, Select } from '../components/field.tsx';
import { currentMessages, useT } from '../i18n/index.ts';
import type { RuleForm } from './model.ts';

/** Each condition type, with an example of its value in the inline syntax the API takes. */
const EXAMPLES: Record<string, string> = {
  country: 'DE,AT',
  device: 'ios,android',
  language: 'de,fr',
  time: 'mon-fri 09:00-17:30 Europe/Berlin',
  ip: '203.0.113.0/24',
  query: 'src=flyer',
  after: '2026-12-01T00:00:00Z',
  before: '2027-01-01T00:00:00Z',
};
const KINDS = ['single', 'split'] as const;
const MAX_SPLIT = 20;
const HTTP_URL = /^https?:\/\/\S+$/;

interface Part {
  dimension: string;
  value: string;
}

/** The first row keeps the ids the single-condition form had; later rows are numbered. */
const idOf = (name: string, i: number) => (i === 0 ? name : `${name}-${i + 1}`);

let newKeys = 0;

/** The rule the inputs describe, or what is missing from them. */
function build(kind: string, parts: Part[], destination: string, weights: RuleForm['weights']): RuleForm | string {
  const t = currentMessages().editor.rules;
  const blank = parts.find((p) => !p.value.trim());
  if (blank) return t.giveValue(t.dimensions[blank.dimension]!, EXAMPLES[blank.dimension]!);
  if (kind === 'single' && parts.length === 0) return t.needsCondition;
  const conditions = parts.map((p) => `${p.dimension}:${p.value.trim()}`);
  const key = `new-${++newKeys}`;
  if (kind === 'single') {
    if (!HTTP_URL.test(destination.trim())) return t.needsDestination;
    return { key, condition: conditions.join(' & '), destination: destination.trim(), weights: null };
  }
  const split = weights!.map((w) => ({ destination: w.destination.trim(), weight: w.weight }));
  if (split.some((w) => !HTTP_URL.test(w.destination))) return t.needsSplitDestinations;
  if (split.some((w) => !Number.isInteger(w.weight) || w.weight < 1 || w.weight > 10_000)) return t.needsWeights;
  // The split part comes first: a rule's type is its first part's.
  return { key, condition: ['split', ...conditions].join(' & '), destination: '', weights: split };
}

export function RuleBuilder({ onAdd }: { onAdd: (rule: RuleForm) => void }) {
  const t = useT().editor.rules;
  const [kind, setKind] = useState<string>('single');
  const [parts, setParts] = useState<Part[]>([{ dimension: 'country', value: '' }]);
  const [destination, setDestination] = useState('');
  const [weights, setWeights] = useState<NonNullable<RuleForm['weights']>>([
    { destination: '', weight: 50 },
    { destination: '', weight: 50 },
  ]);
  const [problem, setProblem] = useState<string | null>(null);
  // A problem is about what was typed: it goes once the typing changes.
  const setPart = (i: number, patch: Partial<Part>) => {
    setParts(parts.map((p, j) => (j === i ? { ...p, ...patch } : p)));
    setProblem(null);
  };
  const setWeight = (i: number, patch: Partial<{ destination: string; weight: number }>) => {
    setWeights(weights.map((w, j) => (j === i ? { ...w, ...patch } : w)));
    setProblem(null);
  };

  function add() {
    const rule = build(kind, parts, destination, weights);
    if (typeof rule === 'string') return setProblem(rule);
    setProblem(null);
    onAdd(rule);
    setParts([{ dimension: parts[0]?.dimension ?? 'country', value: '' }]);
    setDestination('');
    setWeights(weights.map((w) => ({ ...w, destination: '' })));
  }

  return (
    <div class="rule-builder">
      <Field label={t.sendsTo} id="rule-kind">
        <Select id="rule-kind" value={kind} options={KINDS} labels={t.kinds} onChange={setKind} />
      </Field>
      {parts.map((part, i) => (
        <div class="add-rule" key={i} data-condition={i}>
          <Field label={i === 0 ? t.when : t.and} id={idOf('rule-dimension', i)}>
            <Select
              id={idOf('rule-dimension', i)}
              value={part.dimension}
              options={Object.keys(EXAMPLES)}
              labels={t.dimensions}
              onChange={(dimension) => setPart(i, { dimension })}
            />
          </Field>
          <Field label={t.is} id={idOf('rule-value', i)}>
            <input
              id={idOf('rule-value', i)}
              placeholder={EXAMPLES[part.dimension]}
              value={part.value}
              onInput={(e) => setPart(i, { value: e.currentTarget.value })}
            />
          </Field>
          <button
            type="button"
            class="secondary"
            aria-label={t.removeCondition(i + 1)}
            onClick={() => setParts(parts.filter((_, j) => j !== i))}
          >
            {t.remove}
          </button>
        </div>
      ))}
      <button type="button" class="secondary" onClick={() => setParts([...parts, { dimension: 'device', value: '' }])}>
        {parts.length === 0 ? t.addCondition : t.addAndCondition}
      </button>
      {kind === 'single' ? (
        <Field label={t.sendTo} id="rule-destination">
          <input
            id="rule-destination"
            type="url"
            placeholder="https://example.com/de"
            value={destination}
            onInput={(e) => setDestination(e.currentTarget.value)}
          />
        </Field>
      ) : (
        <fieldset class="split-weights">
          <legend>{t.splitBetween}</legend>
          {weights.map((w, i) => (
            <div class="add-rule" key={i}>
              <Field label={t.destination(i + 1)} id={`split-destination-${i + 1}`}>
                <input
                  id={`split-destination-${i + 1}`}
                  type="url"
                  placeholder={`https://example.com/variant-${String.fromCharCode(97 + i)}`}
                  value={w.destination}
                  onInput={(e) => setWeight(i, { destination: e.currentTarget.value })}
                />
              </Field>
              <Field label={t.weight} id={`split-weight-${i + 1}`}>
                <input
                  id={`split-weight-${i + 1}`}
                  type="number"
                  min={1}
                  max={10_000}
                  value={w.weight}
                  onInput={(e) => setWeight(i, { weight: e.currentTarget.valueAsNumber })}
                />
              </Field>
              {weights.length > 2 && (
                <button
                  type="button"
                  class="secondary"
                  aria-label={t.removeDestination(i + 1)}
                  onClick={() => setWeights(weights.filter((_, j) => j !== i))}
                >
                  {t.remove}
                </button>
              )}
            </div>
          ))}
          {weights.length < MAX_SPLIT && (
            <button
              type="button"
              class="secondary"
              onClick={() => setWeights([...weights, { destination: '', weight: 50 }])}
            >
              {t.addDestination}
            </button>
          )}
        </fieldset>
      )}
      <button type="button" class="secondary" onClick={add}>
        {t.add}
      </button>
      {problem && (
        <p class="field-messages" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
