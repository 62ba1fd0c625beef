// A code's status in the list: what its scans do now (active, paused, archived, expired, over
// its scan limit), and the list's status filter (archived codes are shown only on request).
import { useT } from '../i18n/index.ts';

const STATE_BADGES: Record<string, string> = { EXPIRED: 'expired', LIMIT_REACHED: 'limit-reached' };

export function StatusBadge({ status, state }: { status: string; state: string }) {
  const t = useT();
  // An active code whose scans no longer go through says why; otherwise its status.
  const badge = (status === 'ACTIVE' && STATE_BADGES[state]) || status.toLowerCase();
  return <span class={`badge badge-${badge}`}>{t.codes.statuses[badge] ?? badge}</span>;
}

/** The list's status filter: the statuses each choice shows, named in the catalogue (codes.filters). */
export const STATUS_FILTERS = {
  listed: ['ACTIVE', 'PAUSED'],
  active: ['ACTIVE'],
  paused: ['PAUSED'],
  archived: ['ARCHIVED'],
  all: ['ACTIVE', 'PAUSED', 'ARCHIVED'],
} as const;

export type StatusFilter = keyof typeof STATUS_FILTERS;
