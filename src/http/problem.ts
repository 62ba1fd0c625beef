// RFC 9457 problem details: the one error body shape of the HTTP API.
import { errorKinds, type ErrorKind, type FieldError } from '../shared/errors.ts';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance?: string;
  request_id?: string;
  errors?: FieldError[];
  /** A second-factor-required problem's challenge and its end. */
  challenge?: string;
  challenge_expires_at?: string;
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** `type` is a relative URI reference per kind, e.g. `/problems/validation-failed`. */
export function problemFor(kind: ErrorKind, detail: string, extra: Partial<Problem> = {}): Problem {
  const { status, title } = errorKinds[kind];
  return { type: `/problems/${kind.replace(/_/g, '-')}`, title, status, detail, ...extra };
}
