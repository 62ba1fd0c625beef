// A password-protected code's side of the scan path: the unlock page, and the signed cookie that
// remembers a right password. The cookie is `<expiry>.<HMAC-SHA256 of code id and expiry>`,
// keyed with the code's stored argon2id hash (secret, as the database is): it needs no key of its
// own, works on every instance of a fleet, and a new or removed password voids every cookie of
// the old one. It is scoped to the scan URL's path, HttpOnly and SameSite=Lax.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTML_SECURITY_HEADERS } from '../../http/security-headers.ts';
import { escapeHtml } from '../../shared/html.ts';

export const UNLOCK_COOKIE = 'qr_unlock';

/** The unlock page posts back to itself; nothing else may be fetched, run, framed or posted to. */
export const UNLOCK_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The largest form body read: a password of 128 characters, each percent-encoded UTF-8, fits well. */
export const MAX_UNLOCK_FORM_BYTES = 4096;

const mac = (passwordHash: string, codeId: string, expires: number) =>
  createHmac('sha256', passwordHash).update(`unlock.${codeId}.${expires}`).digest();

/** The Set-Cookie value that unlocks the code at `path` for `maxAgeSeconds` from `now`. */
export function unlockCookie(
  target: { codeId: string; passwordHash: string },
  path: string,
  now: number,
  maxAgeSeconds: number,
  secure: boolean,
): string {
  const expires = Math.floor(now / 1000) + maxAgeSeconds;
  const value = `${expires}.${mac(target.passwordHash, target.codeId, expires).toString('base64url')}`;
  return (
    `${UNLOCK_COOKIE}=${value}; Path=${path}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax` +
    (secure ? '; Secure' : '')
  );
}

/** Whether the request carries an unexpired unlock cookie signed for this code and its current password. */
export function isUnlocked(
  cookieHeader: string | undefined,
  codeId: string,
  passwordHash: string,
  now: number,
): boolean {
  if (!cookieHeader) return false;
  for (const part of cookieHeader.split(';')) {
    const [name, value] = part.trim().split('=', 2);
    if (name !== UNLOCK_COOKIE || !value) continue;
    const dot = value.indexOf('.');
    const expires = Number(value.slice(0, dot));
    if (dot < 1 || !Number.isSafeInteger(expires) || expires * 1000 <= now) continue;
    const given = Buffer.from(value.slice(dot + 1), 'base64url');
    const expected = mac(passwordHash, codeId, expires);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  return false;
}

/** What the page says above its field: why the last try failed, or nothing. */
export type UnlockProblem =
  { kind: 'wrong' } | { kind: 'missing' } | { kind: 'too_many'; retryAfterSeconds: number; limit: number } | null;

function problemText(problem: NonNullable<UnlockProblem>): string {
  if (problem.kind === 'wrong') return 'That password is not right. Please try again.';
  if (problem.kind === 'missing') return 'Please enter the password.';
  return (
    `Too many tries: more than ${problem.limit} passwords a minute were tried for this code from your network. ` +
    `Please wait ${problem.retryAfterSeconds} seconds and try again.`
  );
}

/**
 * The unlock page: a plain form that posts back to the scan URL (it works without JavaScript and
 * loads nothing), its field labelled, an error announced (role=alert) and tied to the field.
 */
export function unlockPage(action: string, problem: UnlockProblem): string {
  const error = problem
    ? `<p id="unlock-error" role="alert" style="color:#a4000f;font-weight:600">${problemText(problem)}</p>`
    : '';
  const invalid = problem ? ' aria-invalid="true" aria-describedby="unlock-error"' : '';
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, ' +
    'initial-scale=1"><meta name="robots" content="noindex"><title>Password required</title></head>' +
    '<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a;' +
    'background:#fff"><main><h1>This code is password protected</h1>' +
    '<p>Enter the password you were given to continue.</p>' +
    `<form method="post" action="${escapeHtml(action)}">${error}` +
    '<p><label for="password" style="display:block;margin-bottom:.25rem">Password</label>' +
    '<input id="password" name="password" type="password" required autocomplete="current-password" ' +
    `maxlength="128" autofocus${invalid} style="font:inherit;padding:.5rem;width:100%;box-sizing:border-box;` +
    'border:1px solid #555;border-radius:4px"></p>' +
    '<p><button type="submit" style="font:inherit;padding:.5rem 1rem;border:0;border-radius:4px;background:#1a4fd6;' +
    'color:#fff;cursor:pointer">Continue</button></p></form></main></body></html>'
  );
}

const HTML_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': UNLOCK_PAGE_CSP,
  ...HTML_SECURITY_HEADERS,
  'Cache-Control': 'no-store',
};

/** Answers the unlock page with `status`; HEAD gets its headers only. */
export function sendUnlockPage(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  action: string,
  problem: UnlockProblem,
  extraHeaders: Record<string, string> = {},
): void {
  const body = unlockPage(action, problem);
  res.writeHead(status, { ...HTML_HEADERS, ...extraHeaders, 'Content-Length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** The urlencoded form's `password` field, or null when the body is too large or not a form. */
export function readUnlockForm(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const type = req.headers['content-type'] ?? '';
    if (!type.startsWith('application/x-www-form-urlencoded')) {
      req.resume();
      return resolve(null);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_UNLOCK_FORM_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        resolve(null);
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('password') ?? ''));
    req.on('error', () => resolve(null));
  });
}
