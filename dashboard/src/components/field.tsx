// A labelled form control with its problems under it.
import type { ComponentChildren } from 'preact';
import type { FieldProblem } from '../graphql.ts';
import { FieldMessages } from './messages.tsx';

interface FieldProps {
  label: string;
  /** The input's id, which the label points at. */
  id: string;
  /** Where the server reports this field's problems, e.g. `design.fgColor`. */
  path?: string;
  problems?: FieldProblem[];
  hint?: string;
  children: ComponentChildren;
}

export function Field({ label, id, path, problems, hint, children }: FieldProps) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children}
      {hint && <small class="hint">{hint}</small>}
      {path && problems && <FieldMessages problems={problems} path={path} />}
    </div>
  );
}

/** A <select> of plain values, each labelled by itself unless `labels` names it. */
export function Select({
  id,
  value,
  options,
  labels = {},
  onChange,
}: {
  id: string;
  value: string;
  options: readonly string[];
  labels?: Record<string, string>;
  onChange: (value: string) => void;
}) {
  return (
    <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
      {options.map((option) => (
        <option key={option} value={option}>
          {labels[option] ?? option}
        </option>
      ))}
    </select>
  );
}
