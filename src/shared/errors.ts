// The closed set of error kinds. Services throw DomainError; the HTTP edge renders it as
// RFC 9457 problem+json and the GraphQL edge as a GraphQLError with the same code.

export interface FieldError {
  /** Dotted path into the input, e.g. `design.fg_color` or `routing.rules.0.destination`. */
  path: string;
  message: string;
}

export const errorKinds = {
  bad_request: { status: 400, title: 'Bad request' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  /** The password was right; the second factor's code is awaited (with the problem's `challenge`). */
  second_factor_required: { status: 401, title: 'Second factor required' },
  forbidden: { status: 403, title: 'Forbidden' },
  csrf: { status: 403, title: 'CSRF token missing or wrong' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  not_acceptable: { status: 406, title: 'Not acceptable' },
  conflict: { status: 409, title: 'Conflict' },
  // An answer that needs raw scan rows, on a server that keeps none (SCAN_RAW_ROWS=none).
  raw_scans_not_kept: { status: 409, title: 'Raw scans not kept' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  validation_failed: { status: 422, title: 'Validation failed' },
  rate_limited: { status: 429, title: 'Too many requests' },
  not_implemented: { status: 501, title: 'Not implemented' },
  unavailable: { status: 503, title: 'Service unavailable' },
  internal: { status: 500, title: 'Internal server error' },
} as const;

export type ErrorKind = keyof typeof errorKinds;

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly fieldErrors?: FieldError[],
    /** For a 429 or 503 that can tell when to come back: sent as Retry-After. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }

  get status(): number {
    return errorKinds[this.kind].status;
  }
}

export const notFound = (what: string, id: string) => new DomainError('not_found', `No ${what} with id '${id}'.`);

export const validationFailed = (errors: FieldError[]) =>
  new DomainError(
    'validation_failed',
    errors.length === 1
      ? `${errors[0]!.path || 'body'}: ${errors[0]!.message}`
      : `${errors.length} fields are invalid.`,
    errors,
  );

/** Maps an HTTP status (from a library's http-errors) back to our kind, for uniform rendering. */
export function kindForStatus(status: number): ErrorKind {
  const match = Object.entries(errorKinds).find(([, v]) => v.status === status);
  if (match) return match[0] as ErrorKind;
  return status >= 500 ? 'internal' : 'bad_request';
}
