// The codes: a search box and one page of the table at a time. One query per page brings the
// rows, their previews and their scan counts (Code.scanCount is batched by a DataLoader on the
// server: one grouped count for the whole page).
import { useEffect, useState } from 'preact/hooks';
import { Link, linkTo } from '../components/link.tsx';
import { ScrollRegion } from '../components/scroll-region.tsx';
import { ErrorBox, Loading, Notice } from '../components/messages.tsx';
import { flashMessage } from '../router.ts';
import { useAccountTags } from '../tags.ts';
import { useQuery } from '../use-query.ts';
import { CodeRowView, type CodeRow } from './code-row.tsx';
import { STATUS_FILTERS, type StatusFilter } from './status-badge.tsx';
import { useT } from '../i18n/index.ts';
import { usePageTitle } from '../page-focus.ts';

const PAGE_SIZE = 20;
const DAY_MS = 86_400_000;

const CODES = `query Codes($first: Int!, $after: String, $filter: CodeFilter, $since: DateTime!) {
  codes(first: $first, after: $after, filter: $filter) {
    edges {
      node {
        id type content name scanUrl tags status state createdAt design { style } scanCount(from: $since) svg(size: 64)
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

interface CodesAnswer {
  codes: { edges: { node: CodeRow }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
}

/** 30 days back from the start of this hour: a whole-hour bound lets the server read its hourly rollups. */
function thirtyDaysAgo(): string {
  const hour = Math.floor(Date.now() / 3_600_000) * 3_600_000;
  return new Date(hour - 30 * DAY_MS).toISOString();
}

/** Waits until typing pauses, so a search is not sent per keystroke. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

export function CodesPage() {
  const t = useT();
  usePageTitle(t.codes.title);
  const [search, setSearch] = useState('');
  const [statusFilter, setStatusFilter] = useState<StatusFilter>('listed');
  const q = useDebounced(search.trim(), 300);
  // '' = every code; otherwise the name of the tag the list is filtered by.
  const [tag, setTag] = useState('');
  const accountTags = useAccountTags();
  const colors = new Map(accountTags.map((t) => [t.name, t.color]));
  // Cursors of the pages visited, so "Previous" can go back on a forward-only connection.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [since] = useState(thirtyDaysAgo);
  useEffect(() => setCursors([null]), [q, tag, statusFilter]);
  const after = cursors[cursors.length - 1] ?? null;
  const filter = {
    ...(q ? { q } : {}),
    ...(tag ? { tags: [tag] } : {}),
    status: STATUS_FILTERS[statusFilter],
  };
  const { data, error, loading } = useQuery<CodesAnswer>(CODES, { first: PAGE_SIZE, after, filter, since });
  const [flash] = useState(flashMessage);
  const rows = data?.codes.edges.map((e) => e.node) ?? [];

  return (
    <section>
      <div class="page-head">
        <h1>{t.codes.title}</h1>
        <Link to="/codes/new" class="button">
          {t.codes.newCode}
        </Link>
      </div>
      {flash && <Notice>{flash}</Notice>}
      <div class="list-filters">
        <label class="search">
          {t.codes.search}{' '}
          <input
            type="search"
            value={search}
            placeholder={t.codes.searchExample}
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </label>
        {accountTags.length > 0 && (
          <label class="tag-filter">
            {t.common.tag}{' '}
            <select id="tag-filter" value={tag} onChange={(e) => setTag(e.currentTarget.value)}>
              <option value="">{t.codes.allCodes}</option>
              {accountTags.map((accountTag) => (
                <option key={accountTag.name} value={accountTag.name}>
                  {t.codes.tagOption(accountTag.name, accountTag.codeCount)}
                </option>
              ))}
            </select>
          </label>
        )}
        <label class="tag-filter">
          {t.common.show}{' '}
          <select
            id="status-filter"
            value={statusFilter}
            onChange={(e) => setStatusFilter(e.currentTarget.value as StatusFilter)}
          >
            {Object.keys(STATUS_FILTERS).map((value) => (
              <option key={value} value={value}>
                {t.codes.filters[value as StatusFilter]}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorBox error={error} />
      {loading && !data && <Loading what={t.codes.loading} />}
      {data && rows.length === 0 && (
        <p class="empty">
          {q || tag ? t.codes.noMatch(tag, q) : t.codes.noCodesYet(linkTo('/codes/new'), linkTo('/bulk'))}
        </p>
      )}
      {rows.length > 0 && (
        <ScrollRegion label={t.codes.table}>
          <table class="codes" aria-busy={loading}>
            <thead>
              <tr>
                <th>{t.codes.columns.preview}</th>
                <th>{t.codes.columns.name}</th>
                <th>{t.codes.columns.status}</th>
                <th>{t.codes.columns.scanUrl}</th>
                <th>{t.codes.columns.content}</th>
                <th>{t.codes.columns.style}</th>
                <th class="number">{t.codes.columns.scans}</th>
                <th>{t.codes.columns.created}</th>
                <th>{t.codes.columns.download}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((code) => (
                <CodeRowView key={code.id} code={code} colors={colors} />
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      {/* Once there are rows to page through: shown before them, it was pushed down as they came. */}
      {data && (
        <div class="pager">
          <button
            type="button"
            class="secondary"
            disabled={cursors.length === 1}
            onClick={() => setCursors(cursors.slice(0, -1))}
          >
            {t.common.previous}
          </button>
          <span>{t.codes.page(cursors.length)}</span>
          <button
            type="button"
            class="secondary"
            disabled={!data?.codes.pageInfo.hasNextPage}
            onClick={() => setCursors([...cursors, data!.codes.pageInfo.endCursor])}
          >
            {t.common.next}
          </button>
        </div>
      )}
    </section>
  );
}
