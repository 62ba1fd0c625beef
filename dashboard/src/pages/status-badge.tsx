// A code's status in the list: what its scans do now (active, paused, archived, expired, over
// its scan limit), and the list's status filter (archived codes are shown only on request).
const STATE_LABELS: Record<string, string> = { EXPIRED: 'expired', LIMIT_REACHED: 'limit reached' };

export function StatusBadge({ status, state }: { status: string; state: string }) {
  // An active code whose scans no longer go through says why; otherwise its status.
  const label = status === 'ACTIVE' && STATE_LABELS[state] ? STATE_LABELS[state] : status.toLowerCase();
  return <span class={`badge badge-${label.replace(' ', '-')}`}>{label}</span>;
}

export const STATUS_FILTERS: Record<string, { label: string; statuses: string[] }> = {
  listed: { label: 'Active and paused', statuses: ['ACTIVE', 'PAUSED'] },
  active: { label: 'Active', statuses: ['ACTIVE'] },
  paused: { label: 'Paused', statuses: ['PAUSED'] },
  archived: { label: 'Archived', statuses: ['ARCHIVED'] },
  all: { label: 'All', statuses: ['ACTIVE', 'PAUSED', 'ARCHIVED'] },
};
