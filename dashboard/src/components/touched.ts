// Which fields of a form the user has touched (typed in, changed or left), so a field's problems
// show only once it was touched or a submit was tried, never on a form just opened. Fields are
// known by the `data-path` of their wrapper (components/field.tsx), the path problems carry.
import { useState } from 'preact/hooks';
import type { FieldProblem } from '../graphql.ts';

export interface Touched {
  /** Form-level input and focusout handler: marks the field around the event's target. */
  mark: (event: Event) => void;
  /** Every field counts as touched from now on. */
  submit: () => void;
  /** Whether a problem belongs to a touched field (or its group, or a field within it). */
  shows: (problem: FieldProblem) => boolean;
}

const related = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

export function useTouched(): Touched {
  const [paths, setPaths] = useState<readonly string[]>([]);
  const [submitted, setSubmitted] = useState(false);
  return {
    mark: (event) => {
      const path = (event.target as Element | null)?.closest<HTMLElement>('[data-path]')?.dataset.path;
      // Functional update: several events may arrive before the next render.
      if (path) setPaths((known) => (known.includes(path) ? known : [...known, path]));
    },
    submit: () => setSubmitted(true),
    shows: (problem) => submitted || !problem.path || paths.some((path) => related(problem.path, path)),
  };
}
