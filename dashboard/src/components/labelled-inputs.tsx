// A column of labelled text inputs, each with its problems under it (tied by aria-describedby
// while there are some): the setup and invitation forms.
import { FieldMessages } from './messages.tsx';
import type { FieldProblem } from '../graphql.ts';

/** name, label, input type, autocomplete token */
export type InputSpec = readonly [name: string, label: string, type: string, autoComplete: string];

export function LabelledInputs({
  idPrefix,
  inputs,
  values,
  problems,
  onChange,
}: {
  idPrefix: string;
  inputs: readonly InputSpec[];
  values: Record<string, string>;
  problems: FieldProblem[];
  onChange: (name: string, value: string) => void;
}) {
  return (
    <>
      {inputs.map(([name, label, type, autoComplete]) => {
        const id = `${idPrefix}-${name}`;
        const invalid = problems.some((p) => p.path === name);
        return (
          <div key={name}>
            <label for={id}>{label}</label>
            <input
              id={id}
              type={type}
              autoComplete={autoComplete}
              value={values[name] ?? ''}
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? `${id}-problems` : undefined}
              onInput={(e) => onChange(name, e.currentTarget.value)}
            />
            <FieldMessages problems={problems} path={name} id={`${id}-problems`} />
          </div>
        );
      })}
    </>
  );
}
