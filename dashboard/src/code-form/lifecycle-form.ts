// A code's status, expiry and scan limit in the editor's form, and as GraphQL input. Expiry is
// edited as a local date-time (the browser's time zone) and sent as an instant; a saved expiry
// left as it was is sent back exactly (the server accepts the code's own value even once passed).
// A url code's password is set or removed here too; the saved one is never shown (the API never returns it).
export const STATUSES = ['active', 'paused', 'archived'] as const;

export interface LifecycleForm {
  status: string;
  pausedDestination: string;
  /** A datetime-local value ('' = never expires). */
  expiresAt: string;
  /** The saved instant and how the form showed it, so that an untouched field is sent back as saved. */
  savedExpiresAt: { iso: string; local: string } | null;
  expiredDestination: string;
  /** '' = no limit. */
  maxScans: string;
  /** The saved code asks for a password (the password itself is never sent back). */
  passwordProtected: boolean;
  /** A new password; '' leaves the password as it is. */
  password: string;
  /** Remove the saved password (when no new one is typed). */
  removePassword: boolean;
}

export const emptyLifecycle = (): LifecycleForm => ({
  status: 'active',
  pausedDestination: '',
  expiresAt: '',
  savedExpiresAt: null,
  expiredDestination: '',
  maxScans: '',
  passwordProtected: false,
  password: '',
  removePassword: false,
});

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local value in the browser's time zone, to the second. */
export function localDateTime(iso: string): string {
  const d = new Date(iso);
  const date = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return `${date}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export interface SavedLifecycle {
  status: string;
  pausedDestination: string | null;
  expiresAt: string | null;
  expiredDestination: string | null;
  maxScans: number | null;
  passwordProtected: boolean;
}

export const LIFECYCLE_FIELDS =
  'status state pausedDestination expiresAt expiredDestination maxScans passwordProtected';

export function lifecycleFormOf(code: SavedLifecycle): LifecycleForm {
  const local = code.expiresAt ? localDateTime(code.expiresAt) : '';
  return {
    status: code.status.toLowerCase(),
    pausedDestination: code.pausedDestination ?? '',
    expiresAt: local,
    savedExpiresAt: code.expiresAt ? { iso: code.expiresAt, local } : null,
    expiredDestination: code.expiredDestination ?? '',
    maxScans: code.maxScans === null ? '' : String(code.maxScans),
    passwordProtected: code.passwordProtected,
    password: '',
    removePassword: false,
  };
}

/**
 * The lifecycle input fields; an empty field is `unset` (absent on create, null on update). Static codes take only the
 * status.
 */
export function lifecycleInput(l: LifecycleForm, type: string, unset: null | undefined): Record<string, unknown> {
  const status = l.status.toUpperCase();
  if (type !== 'url') return { status };
  const text = (value: string) => (value.trim() === '' ? unset : value.trim());
  const expiresAt =
    l.expiresAt === ''
      ? unset
      : l.savedExpiresAt?.local === l.expiresAt
        ? l.savedExpiresAt.iso
        : new Date(l.expiresAt).toISOString();
  const maxScans = l.maxScans.trim() === '' ? unset : Number(l.maxScans);
  const fields = {
    status,
    pausedDestination: text(l.pausedDestination),
    expiresAt,
    expiredDestination: text(l.expiredDestination),
    maxScans,
    // Sent as typed (spaces count); null removes it, absent keeps it.
    password: l.password !== '' ? l.password : l.removePassword ? null : undefined,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}
