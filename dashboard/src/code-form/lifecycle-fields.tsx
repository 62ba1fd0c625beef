// Whether the code's scans go through: its status (active, paused, archived), and for url codes
// an expiry, a limit of scans and where scans go instead (else a "paused" or "expired" page),
// and a password scans must give first.
import { Field, Select } from '../components/field.tsx';
import type { FieldProblem } from '../graphql.ts';
import { STATUSES, type LifecycleForm } from './lifecycle-form.ts';

const STATUS_LABELS: Record<string, string> = {
  active: 'Active',
  paused: 'Paused',
  archived: 'Archived (hidden from the list)',
};

interface LifecycleFieldsProps {
  type: string;
  lifecycle: LifecycleForm;
  problems: FieldProblem[];
  onChange: (lifecycle: LifecycleForm) => void;
}

export function LifecycleFields({ type, lifecycle, problems, onChange }: LifecycleFieldsProps) {
  const set = (patch: Partial<LifecycleForm>) => onChange({ ...lifecycle, ...patch });
  const url = type === 'url';
  return (
    <fieldset>
      <legend>Status and expiry</legend>
      <Field
        label="Status"
        id="code-status"
        path="status"
        problems={problems}
        hint={
          url
            ? 'A paused or archived code’s scans go to the paused destination, or get a “this code is paused” page.'
            : 'Archived codes are hidden from the list.'
        }
      >
        <Select
          id="code-status"
          value={lifecycle.status}
          options={STATUSES}
          labels={STATUS_LABELS}
          onChange={(status) => set({ status })}
        />
      </Field>
      {url && (
        <>
          <Field
            label="Paused destination"
            id="code-paused-destination"
            path="pausedDestination"
            problems={problems}
            hint="Optional: where scans go while paused."
          >
            <input
              id="code-paused-destination"
              type="url"
              placeholder="https://example.com/back-soon"
              value={lifecycle.pausedDestination}
              onInput={(e) => set({ pausedDestination: e.currentTarget.value })}
            />
          </Field>
          <Field
            label="Expires at"
            id="code-expires-at"
            path="expiresAt"
            problems={problems}
            hint={
              'Optional, in your time zone: from then on scans go to the expired destination, ' +
              'or get a “this code has expired” page.'
            }
          >
            <input
              id="code-expires-at"
              type="datetime-local"
              step={1}
              value={lifecycle.expiresAt}
              onInput={(e) => set({ expiresAt: e.currentTarget.value })}
            />
          </Field>
          <Field
            label="Scan limit"
            id="code-max-scans"
            path="maxScans"
            problems={problems}
            hint="Optional: after this many scans (bots not counted) the code counts as expired."
          >
            <input
              id="code-max-scans"
              type="number"
              min={1}
              step={1}
              placeholder="no limit"
              value={lifecycle.maxScans}
              onInput={(e) => set({ maxScans: e.currentTarget.value })}
            />
          </Field>
          <Field
            label="Expired destination"
            id="code-expired-destination"
            path="expiredDestination"
            problems={problems}
            hint="Optional: where scans go once expired or over the limit."
          >
            <input
              id="code-expired-destination"
              type="url"
              placeholder="https://example.com/campaign-over"
              value={lifecycle.expiredDestination}
              onInput={(e) => set({ expiredDestination: e.currentTarget.value })}
            />
          </Field>
          <Field
            label={lifecycle.passwordProtected ? 'New password' : 'Password'}
            id="code-password"
            path="password"
            problems={problems}
            hint={
              lifecycle.passwordProtected
                ? 'This code asks scans for a password. Type a new one to change it; leave empty to keep it.'
                : 'Optional: scans must enter this password on an unlock page before they are redirected.'
            }
          >
            <input
              id="code-password"
              type="password"
              autocomplete="new-password"
              maxLength={128}
              value={lifecycle.password}
              onInput={(e) => set({ password: e.currentTarget.value })}
            />
          </Field>
          {lifecycle.passwordProtected && (
            <label class="inline">
              <input
                type="checkbox"
                checked={lifecycle.removePassword}
                disabled={lifecycle.password !== ''}
                onChange={(e) => set({ removePassword: e.currentTarget.checked })}
              />{' '}
              Remove the password
            </label>
          )}
        </>
      )}
    </fieldset>
  );
}
