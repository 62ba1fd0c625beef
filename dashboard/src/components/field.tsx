// A labelled form control with its hint and problems under it, tied to the control for assistive
// technology: the control is described by both and marked invalid while it has a problem.
import { cloneElement, isValidElement, toChildArray, type ComponentChildren } from 'preact';
import type { FieldProblem } from '../graphql.ts';
import { FieldMessages, problemsAt } from './messages.tsx';

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
  const invalid = path !== undefined && problems !== undefined && problemsAt(problems, path).length > 0;
  const hintId = `${id}-hint`;
  const messagesId = `${id}-problems`;
  const describedBy = [hint && hintId, invalid && messagesId].filter(Boolean).join(' ') || undefined;
  // The control is the child with the label's id (a field may hold a button beside it).
  const controls = toChildArray(children).map((child) =>
    isValidElement(child) && (child.props as { id?: string }).id === id
      ? cloneElement(child, { 'aria-invalid': invalid ? 'true' : undefined, 'aria-describedby': describedBy })
      : child,
  );
  return (
    <div class="field" data-path={path}>
      <label for={id}>{label}</label>
      {controls}
      {hint && (
        <small class="hint" id={hintId}>
          {hint}
        </small>
      )}
      {path && problems && <FieldMessages problems={problems} path={path} id={messagesId} />}
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
  onReach,
  ...aria
}: {
  /** Set by Field around it. */
  'aria-invalid'?: 'true';
  'aria-describedby'?: string;
  id: string;
  value: string;
  options: readonly string[];
  labels?: Record<string, string>;
  onChange: (value: string) => void;
  /** Called as a person reaches for the list (focus, or a press before it opens), to fill it then. */
  onReach?: () => void;
}) {
  return (
    <select
      id={id}
      {...aria}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      onFocus={onReach}
      onPointerDown={onReach}
    >
      {options.map((option) => (
        <option key={option} value={option}>
          {labels[option] ?? option}
        </option>
      ))}
    </select>
  );
}
