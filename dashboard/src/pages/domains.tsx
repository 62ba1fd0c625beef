// Domains: the account's own short domains. Add one, create the TXT record shown, verify it;
// set where its root and unknown slugs go; remove one no code uses. Codes pick a verified
// domain in their editor (code-form/domain-select.tsx).
import { useState } from 'preact/hooks';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { Field } from '../components/field.tsx';
import { ErrorBox, Loading, Notice } from '../components/messages.tsx';
import { formatDateTime } from '../format.ts';
import { ApiError, graphql } from '../graphql.ts';
import { useQuery } from '../use-query.ts';
import { usePageTitle } from '../page-focus.ts';
import { useT } from '../i18n/index.ts';

const FIELDS = 'id hostname status verification { name value } fallbackUrl verifiedAt createdAt';
const DOMAINS = `{ domains { ${FIELDS} } }`;
const ADD = `mutation Add($input: AddDomainInput!) { addDomain(input: $input) { ${FIELDS} } }`;
const VERIFY = `mutation Verify($id: ID!) { verifyDomain(id: $id) { ${FIELDS} } }`;
const UPDATE = `mutation Update($id: ID!, $input: UpdateDomainInput!) {
  updateDomain(id: $id, input: $input) { ${FIELDS} }
}`;
const REMOVE = 'mutation Remove($id: ID!) { removeDomain(id: $id) { deletedId } }';

interface Domain {
  id: string;
  hostname: string;
  status: 'pending' | 'verified';
  verification: { name: string; value: string };
  fallbackUrl: string | null;
  verifiedAt: string | null;
  createdAt: string;
}

const asApiError = (err: unknown) => (err instanceof ApiError ? err : new ApiError(String(err), 'ERROR'));

function AddDomain({ onAdded }: { onAdded: (domain: Domain) => void }) {
  const t = useT();
  const [hostname, setHostname] = useState('');
  const [fallback, setFallback] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  async function add(event: Event) {
    event.preventDefault();
    setBusy(true);
    try {
      const input = { hostname: hostname.trim(), ...(fallback.trim() === '' ? {} : { fallbackUrl: fallback.trim() }) };
      const { addDomain } = await graphql<{ addDomain: Domain }>(ADD, { input });
      setHostname('');
      setFallback('');
      setError(null);
      onAdded(addDomain);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  }

  const problems = error?.problems ?? [];
  return (
    <form class="add-domain" onSubmit={add} noValidate>
      <Field
        label={t.domains.domain}
        id="domain-hostname"
        path="hostname"
        problems={problems}
        hint={t.domains.domainHint}
      >
        <input
          id="domain-hostname"
          required
          placeholder="go.example.com"
          value={hostname}
          onInput={(e) => setHostname(e.currentTarget.value)}
        />
      </Field>
      <Field
        label={t.domains.fallbackUrl}
        id="domain-fallback"
        path="fallback_url"
        problems={problems}
        hint={t.domains.fallbackHint}
      >
        <input
          id="domain-fallback"
          type="url"
          placeholder="https://example.com/"
          value={fallback}
          onInput={(e) => setFallback(e.currentTarget.value)}
        />
      </Field>
      <ErrorBox error={error && problems.length === 0 ? error : null} title={t.domains.notAdded} />
      <button type="submit" disabled={busy}>
        {busy ? t.domains.adding : t.domains.add}
      </button>
    </form>
  );
}

function DomainRow({
  domain,
  onChanged,
  onRemove,
}: {
  domain: Domain;
  onChanged: (domain: Domain, notice: string) => void;
  onRemove: (domain: Domain) => void;
}) {
  const t = useT();
  const [fallback, setFallback] = useState(domain.fallbackUrl ?? '');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  async function run(action: () => Promise<{ domain: Domain; notice: string }>) {
    setBusy(true);
    try {
      const { domain: changed, notice } = await action();
      setError(null);
      onChanged(changed, notice);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  }
  const verify = () =>
    run(async () => ({
      domain: (await graphql<{ verifyDomain: Domain }>(VERIFY, { id: domain.id })).verifyDomain,
      notice: t.domains.isVerified(domain.hostname),
    }));
  const saveFallback = () =>
    run(async () => {
      const input = { fallbackUrl: fallback.trim() === '' ? null : fallback.trim() };
      return {
        domain: (await graphql<{ updateDomain: Domain }>(UPDATE, { id: domain.id, input })).updateDomain,
        notice: t.domains.savedFallback(domain.hostname),
      };
    });

  const id = `fallback-${domain.id}`;
  return (
    <li class="domain" data-hostname={domain.hostname}>
      <div class="domain-head">
        <strong>{domain.hostname}</strong>
        <span class={`status ${domain.status}`}>
          {domain.status === 'verified'
            ? t.domains.verified(formatDateTime(domain.verifiedAt!))
            : t.domains.notVerified}
        </span>
      </div>
      {domain.status === 'pending' && (
        <div class="txt-record">
          <p>{t.domains.createRecord}</p>
          <dl>
            <dt>{t.domains.recordName}</dt>
            <dd>
              <code>{domain.verification.name}</code>
            </dd>
            <dt>{t.domains.recordValue}</dt>
            <dd>
              <code>{domain.verification.value}</code>
            </dd>
          </dl>
          <button type="button" disabled={busy} onClick={() => void verify()}>
            {t.domains.verify}
          </button>
        </div>
      )}
      <div class="field">
        <label for={id}>{t.domains.fallbackUrl}</label>
        <div class="inline">
          <input
            id={id}
            type="url"
            placeholder={t.domains.noFallback}
            value={fallback}
            onInput={(e) => setFallback(e.currentTarget.value)}
          />
          <button type="button" class="secondary" disabled={busy} onClick={() => void saveFallback()}>
            {t.domains.save}
          </button>
        </div>
      </div>
      <ErrorBox error={error} title={t.domains.notDone} />
      <button type="button" class="danger" disabled={busy} onClick={() => onRemove(domain)}>
        {t.domains.remove}
      </button>
    </li>
  );
}

export function DomainsPage() {
  const t = useT();
  usePageTitle(t.domains.title);
  const { data, error, loading, reload } = useQuery<{ domains: Domain[] }>(DOMAINS, {});
  const [notice, setNotice] = useState<string | null>(null);
  const [asking, setAsking] = useState<Domain | null>(null);
  const [removing, setRemoving] = useState(false);
  const [removeError, setRemoveError] = useState<unknown>(null);

  async function remove(domain: Domain) {
    setRemoving(true);
    try {
      await graphql(REMOVE, { id: domain.id });
      setRemoveError(null);
      setNotice(t.domains.removed(domain.hostname));
      reload();
    } catch (err) {
      setRemoveError(err);
    } finally {
      setRemoving(false);
      setAsking(null);
    }
  }

  const domains = data?.domains ?? [];
  return (
    <section>
      <div class="page-head">
        <h1>{t.domains.title}</h1>
      </div>
      <p>{t.domains.intro}</p>
      {notice && <Notice>{notice}</Notice>}
      <ErrorBox error={error} />
      <ErrorBox error={removeError} title={t.domains.notRemoved} />
      <AddDomain
        onAdded={(domain) => {
          setNotice(t.domains.added(domain.hostname));
          reload();
        }}
      />
      {loading && !data && <Loading what={t.domains.loading} />}
      {data && domains.length === 0 && <p class="empty">{t.domains.none}</p>}
      <ul class="domains" aria-busy={loading}>
        {domains.map((domain) => (
          <DomainRow
            key={`${domain.id}-${domain.status}-${domain.fallbackUrl}`}
            domain={domain}
            onChanged={(_changed, message) => {
              setNotice(message);
              reload();
            }}
            onRemove={setAsking}
          />
        ))}
      </ul>
      <ConfirmDialog
        open={asking !== null}
        title={asking ? t.domains.confirmTitle(asking.hostname) : ''}
        confirmLabel={t.domains.confirm}
        busy={removing}
        onConfirm={() => asking && void remove(asking)}
        onCancel={() => setAsking(null)}
      >
        <p>{t.domains.confirmText}</p>
      </ConfirmDialog>
    </section>
  );
}
