// How the dashboard tells what went wrong, or that it is still working.
import { ApiError, type FieldProblem } from '../graphql.ts';
import { useT } from '../i18n/index.ts';

/** The problems whose path is `path` or lies under it (`design` holds `design.fgColor`). */
export const problemsAt = (problems: FieldProblem[], path: string): FieldProblem[] =>
  problems.filter((p) => p.path === path || p.path.startsWith(`${path}.`));

/**
 * The problems of one input field, under it. Not an alert of its own: the field points at the list
 * (aria-describedby), and the form's error box or the preview announces the failure once.
 */
export function FieldMessages({ problems, path, id }: { problems: FieldProblem[]; path: string; id?: string }) {
  const mine = problemsAt(problems, path);
  if (mine.length === 0) return null;
  return (
    <ul class="field-messages" id={id}>
      {mine.map((p) => (
        <li key={p.path + p.message}>{p.message}</li>
      ))}
    </ul>
  );
}

/** A failure: the server's message and, when it named fields, each field's problem. */
export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
  const t = useT();
  if (!error) return null;
  const message = error instanceof Error ? error.message : String(error);
  const problems = error instanceof ApiError ? error.problems : [];
  return (
    <div class="error-box" role="alert">
      {title && <strong>{title} </strong>}
      {message}
      {problems.length > 1 && (
        <ul>
          {problems.map((p) => (
            <li key={p.path + p.message}>
              <code>{p.path || t.common.input}</code>: {p.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** "Loading the codes…": `what` comes in the page's language. */
export function Loading({ what }: { what: string }) {
  const t = useT();
  return (
    <p class="loading" aria-live="polite">
      {t.common.loading(what)}
    </p>
  );
}

export function Notice({ children }: { children: string }) {
  return (
    <p class="notice" role="status">
      {children}
    </p>
  );
}
