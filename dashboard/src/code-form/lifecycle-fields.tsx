// Whether the code's scans go through: its status (active, paused, archived), and for url codes
// an expiry, a limit of scans and where scans go instead (else a "paused" or "expired" page),
// and a password scans must give first.
import { Field, Select } from '../components/field.tsx';
import type { FieldProblem } from '../graphql.ts';
import { useT } from '../i18n/index.ts';
import { STATUSES, type LifecycleForm } from './lifecycle-form.ts';

interface LifecycleFieldsProps {
  type: string;
  lifecycle: LifecycleForm;
  problems: FieldProblem[];
  onChange: (lifecycle: LifecycleForm) => void;
}

export function LifecycleFields({ type, lifecycle, problems, onChange }: LifecycleFieldsProps) {
  const t = useT().editor.lifecycle;
  const set = (patch: Partial<LifecycleForm>) => onChange({ ...lifecycle, ...patch });
  const url = type === 'url';
  return (
    <fieldset>
      <legend>{t.legend}</legend>
      <Field
        label={t.status}
        id="code-status"
        path="status"
        problems={problems}
        hint={url ? t.statusHintUrl : t.statusHintStatic}
      >
        <Select
          id="code-status"
          value={lifecycle.status}
          options={STATUSES}
          labels={t.statuses}
          onChange={(status) => set({ status })}
        />
      </Field>
      {url && (
        <>
          <Field
            label={t.pausedDestination}
            id="code-paused-destination"
            path="pausedDestination"
            problems={problems}
            hint={t.pausedDestinationHint}
          >
            <input
              id="code-paused-destination"
              type="url"
              placeholder="https://example.com/back-soon"
              value={lifecycle.pausedDestination}
              onInput={(e) => set({ pausedDestination: e.currentTarget.value })}
            />
          </Field>
          <Field label={t.expiresAt} id="code-expires-at" path="expiresAt" problems={problems} hint={t.expiresAtHint}>
            <input
              id="code-expires-at"
              type="datetime-local"
              step={1}
              value={lifecycle.expiresAt}
              onInput={(e) => set({ expiresAt: e.currentTarget.value })}
            />
          </Field>
          <Field label={t.maxScans} id="code-max-scans" path="maxScans" problems={problems} hint={t.maxScansHint}>
            <input
              id="code-max-scans"
              type="number"
              min={1}
              step={1}
              placeholder={t.noLimit}
              value={lifecycle.maxScans}
              onInput={(e) => set({ maxScans: e.currentTarget.value })}
            />
          </Field>
          <Field
            label={t.expiredDestination}
            id="code-expired-destination"
            path="expiredDestination"
            problems={problems}
            hint={t.expiredDestinationHint}
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
            label={lifecycle.passwordProtected ? t.newPassword : t.password}
            id="code-password"
            path="password"
            problems={problems}
            hint={lifecycle.passwordProtected ? t.newPasswordHint : t.passwordHint}
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
              {t.removePassword}
            </label>
          )}
        </>
      )}
    </fieldset>
  );
}
