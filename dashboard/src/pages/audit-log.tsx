// The audit log: who changed what in this account, newest first, filtered by the kind of
// object, a page at a time ("Load more" follows the connection's cursor). Needs audit:read.
import { useState } from 'preact/hooks';
import { ErrorBox, Loading } from '../components/messages.tsx';
import { formatDateTime } from '../format.ts';
import { ApiError } from '../graphql.ts';
import { useQuery } from '../use-query.ts';
import { ScrollRegion } from '../components/scroll-region.tsx';
import { usePageTitle } from '../page-focus.ts';
import { useT } from '../i18n/index.ts';

const QUERY = `query AuditLog($first: Int, $after: String, $filter: AuditLogFilter) {
  auditLog(first: $first, after: $after, filter: $filter) {
    edges { node { id at action objectType objectId actor { kind id } summary } }
    pageInfo { hasNextPage endCursor }
  }
}`;

const OBJECT_TYPES = ['code', 'batch', 'tag', 'domain', 'webhook', 'api_key', 'oauth_client', 'oauth_grant'] as const;
const PAGE = 50;

interface Entry {
  id: string;
  at: string;
  action: string;
  objectType: string;
  objectId: string;
  actor: { kind: string; id: string };
  summary: Record<string, unknown>;
}

interface AuditLogAnswer {
  auditLog: { edges: { node: Entry }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

/** A value in a line of text: strings as they are, anything else as JSON, long ones cut. */
function short(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** A summary in one line: each changed field old → new, or the summary's own fields. */
export function describeSummary(summary: Record<string, unknown>): string {
  const changes = summary.changes as Record<string, { old: unknown; new: unknown }> | undefined;
  if (changes)
    return Object.entries(changes)
      .map(([field, change]) => `${field}: ${short(change.old)} → ${short(change.new)}`)
      .join('; ');
  return Object.entries(summary)
    .map(([field, value]) => `${field}: ${short(value)}`)
    .join(', ');
}

export function AuditLogPage() {
  const t = useT();
  usePageTitle(t.audit.title);
  const [objectType, setObjectType] = useState('');
  const [after, setAfter] = useState<string | null>(null);
  // The pages already shown above the one loading (Load more appends).
  const [earlier, setEarlier] = useState<Entry[]>([]);
  const filter = objectType ? { objectType } : {};
  const { data, error, loading } = useQuery<AuditLogAnswer>(QUERY, { first: PAGE, after, filter });
  const entries = [...earlier, ...(data?.auditLog.edges.map((edge) => edge.node) ?? [])];
  const next = data?.auditLog.pageInfo.hasNextPage ? data.auditLog.pageInfo.endCursor : null;
  const forbidden = error instanceof ApiError && error.code === 'FORBIDDEN';

  function pick(type: string) {
    setEarlier([]);
    setAfter(null);
    setObjectType(type);
  }

  return (
    <section>
      <div class="page-head">
        <h1>{t.audit.title}</h1>
      </div>
      <p>{t.audit.intro}</p>
      <label>
        {t.common.show}{' '}
        <select value={objectType} onChange={(e) => pick((e.target as HTMLSelectElement).value)}>
          <option value="">{t.audit.everyChange}</option>
          {OBJECT_TYPES.map((type) => (
            <option key={type} value={type}>
              {t.audit.objectTypes[type]}
            </option>
          ))}
        </select>
      </label>
      {forbidden ? (
        <p class="error-box" role="alert">
          {t.audit.forbidden}
        </p>
      ) : (
        <ErrorBox error={error} />
      )}
      {loading && !data && <Loading what={t.audit.loading} />}
      {data && entries.length === 0 && <p class="empty">{t.audit.none}</p>}
      {entries.length > 0 && (
        <ScrollRegion label={t.audit.table}>
          <table class="audit-log" aria-busy={loading}>
            <thead>
              <tr>
                <th>{t.audit.columns.when}</th>
                <th>{t.audit.columns.who}</th>
                <th>{t.audit.columns.what}</th>
                <th>{t.audit.columns.object}</th>
                <th>{t.audit.columns.change}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} data-entry-id={entry.id}>
                  <td>{formatDateTime(entry.at)}</td>
                  <td>
                    {t.audit.actors[entry.actor.kind] ?? entry.actor.kind} <code>{entry.actor.id}</code>
                  </td>
                  <td>{entry.action}</td>
                  <td>
                    <code>{entry.objectId}</code>
                  </td>
                  <td>{describeSummary(entry.summary)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {next && (
        <button
          type="button"
          class="secondary"
          disabled={loading}
          onClick={() => {
            setEarlier(entries);
            setAfter(next);
          }}
        >
          {t.audit.loadMore}
        </button>
      )}
    </section>
  );
}
