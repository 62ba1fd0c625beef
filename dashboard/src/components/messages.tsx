// How the dashboard tells what went wrong, or that it is still working.
import { ApiError, type FieldProblem } from '../graphql.ts';

/** The problems of one input field, under it. */
export function FieldMessages({ problems, path }: { problems: FieldProblem[]; path: string }) {
  const mine = problems.filter((p) => p.path === path || p.path.startsWith(`${path}.`));
  if (mine.length === 0) return null;
  return (
    <ul class="field-messages" role="alert">
      {mine.map((p) => (
        <li key={p.path + p.message}>{p.message}</li>
      ))}
    </ul>
  );
}

/** A failure: the server's message and, when it named fields, each field's problem. */
export function ErrorBox({ error, title }: { error: unknown; title?: string }) {
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
              <code>{p.path || 'input'}</code>: {p.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="loading" aria-live="polite">
      Loading {what}…
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
