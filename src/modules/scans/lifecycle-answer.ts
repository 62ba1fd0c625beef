// What a scan of a paused, archived, expired or used-up code gets: the fallback
// destination when the code has one (routing rules do not apply to it), else a small page of
// our own. Paused is a 404: a pause is temporary, and a 410 would tell caches and crawlers the
// address is gone for good. Expired and out of scans are a 410 Gone: they do not come back
// unless the owner changes the code. The pages load nothing from elsewhere (strict CSP) and
// are never stored (no-store), so the next scan after a resume reaches us.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HTML_SECURITY_HEADERS, STATIC_PAGE_CSP } from '../../http/security-headers.ts';
import type { CodeLifecycle } from '../codes/index.ts';

/** What a scan was answered, stored with it (scans.outcome); the presenters' enums list these. */
export const SCAN_OUTCOMES = ['redirect', 'paused', 'expired', 'limit_reached'] as const;
export type ScanOutcome = (typeof SCAN_OUTCOMES)[number];

/**
 * What the scan path reports to the recorder, webhooks and the live stream: the stored outcomes,
 * and `locked`, a password-protected code's unlock page shown (a locked view, not a scan: it is
 * counted apart, locked-views.ts, and never stored as a scan).
 */
export const SCAN_EVENT_OUTCOMES = [...SCAN_OUTCOMES, 'locked'] as const;
export type ScanEventOutcome = (typeof SCAN_EVENT_OUTCOMES)[number];

/** A code's lifecycle as the scan path reads it; null for an active code with no expiry or limit. */
export interface TargetLifecycle {
  paused: boolean;
  pausedDestination: string | null;
  /** Epoch milliseconds: scans at or after it are expired. Checked against the clock on every scan. */
  expiresAt: number | null;
  expiredDestination: string | null;
  maxScans: number | null;
}

export function compileLifecycle(l: CodeLifecycle, asLocation: (url: string) => string): TargetLifecycle | null {
  if (l.status === 'active' && l.expiresAt === null && l.maxScans === null) return null;
  return {
    paused: l.status !== 'active',
    pausedDestination: l.pausedDestination && asLocation(l.pausedDestination),
    expiresAt: l.expiresAt?.getTime() ?? null,
    expiredDestination: l.expiredDestination && asLocation(l.expiredDestination),
    maxScans: l.maxScans,
  };
}

/** The status and the expiry at `now`; the limit is the caller's (it needs the counts). */
export function statusOutcome(l: TargetLifecycle, now: number): ScanOutcome | null {
  if (l.paused) return 'paused';
  if (l.expiresAt !== null && now >= l.expiresAt) return 'expired';
  return null;
}

/** The fallback destination of an outcome other than redirect, or null for the page. */
export const fallbackOf = (l: TargetLifecycle, outcome: ScanOutcome) =>
  outcome === 'paused' ? l.pausedDestination : l.expiredDestination;

function page(title: string, heading: string, text: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, ' +
    'initial-scale=1">' +
    (`<title>${title}</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem ` +
      `auto;padding:0 1rem">`) +
    `<h1>${heading}</h1><p>${text}</p></body></html>`
  );
}

const PAGES = {
  paused: {
    status: 404,
    type: '/problems/code-paused',
    title: 'Code paused',
    detail: 'This QR code is paused by its owner.',
    html: page(
      'QR code paused',
      'This code is paused',
      'Its owner paused this QR code for now. Please try again later.',
    ),
  },
  expired: {
    status: 410,
    type: '/problems/code-expired',
    title: 'Code expired',
    detail: 'This QR code has expired.',
    html: page('QR code expired', 'This code has expired', 'This QR code is no longer active.'),
  },
  limit_reached: {
    status: 410,
    type: '/problems/code-expired',
    title: 'Code expired',
    detail: 'This QR code has reached its scan limit.',
    html: page('QR code expired', 'This code has expired', 'This QR code reached the number of scans it was made for.'),
  },
} as const;

const HTML_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': STATIC_PAGE_CSP,
  ...HTML_SECURITY_HEADERS,
  'Cache-Control': 'no-store',
};

/** Answers with the outcome's page (HTML, or problem+json for `json`); returns the status sent. */
export function sendLifecyclePage(
  req: IncomingMessage,
  res: ServerResponse,
  outcome: Exclude<ScanOutcome, 'redirect'>,
  path: string,
  json: boolean,
): number {
  const p = PAGES[outcome];
  const body = json
    ? JSON.stringify({ type: p.type, title: p.title, status: p.status, detail: p.detail, instance: path })
    : p.html;
  const headers = json ? { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' } : HTML_HEADERS;
  res.writeHead(p.status, { ...headers, 'Content-Length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
  return p.status;
}
