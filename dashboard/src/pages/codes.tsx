// The codes: a search box and one page of the table at a time. One query per page brings the
// rows, their previews and their scan counts (Code.scanCount is batched by a DataLoader on the
// server: one grouped count for the whole page).
import { useEffect, useState } from 'preact/hooks';
import { TagLabels } from '../code-form/tag-field.tsx';
import { Link } from '../components/link.tsx';
import { ErrorBox, Loading, Notice } from '../components/messages.tsx';
import { QrImage } from '../components/qr-image.tsx';
import { describeContent, formatCount, formatDateTime } from '../format.ts';
import { flashMessage } from '../router.ts';
import { useAccountTags } from '../tags.ts';
import { useQuery } from '../use-query.ts';
import { StatusBadge, STATUS_FILTERS } from './status-badge.tsx';

const PAGE_SIZE = 20;
const DAY_MS = 86_400_000;

const CODES = `query Codes($first: Int!, $after: String, $filter: CodeFilter, $since: DateTime!) {
  codes(first: $first, after: $after, filter: $filter) {
    edges {
      node { id type content name tags status state createdAt design { style } scanCount(from: $since) svg(size: 64) }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

interface CodeRow {
  id: string;
  type: string;
  content: unknown;
  name: string | null;
  tags: string[];
  status: string;
  state: string;
  createdAt: string;
  design: { style: string };
  scanCount: number;
  svg: string;
}

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

/** Why the filtered list is empty: "No code tagged “print” whose name or content contains “menu”." */
function noMatch(tag: string, q: string): string {
  const tagged = tag ? ` tagged “${tag}”` : '';
  const containing = q ? `${tag ? ' whose' : "'s"} name or content contains “${q}”` : '';
  return `No code${tagged}${containing}.`;
}

export function CodesPage() {
  const [search, setSearch] = useState('');
  const [statusFilter, setStatusFilter] = useState('listed');
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
    status: STATUS_FILTERS[statusFilter]!.statuses,
  };
  const { data, error, loading } = useQuery<CodesAnswer>(CODES, { first: PAGE_SIZE, after, filter, since });
  const [flash] = useState(flashMessage);
  const rows = data?.codes.edges.map((e) => e.node) ?? [];

  return (
    <section>
      <div class="page-head">
        <h1>Codes</h1>
        <Link to="/codes/new" class="button">
          New code
        </Link>
      </div>
      {flash && <Notice>{flash}</Notice>}
      <div class="list-filters">
        <label class="search">
          Search names and content{' '}
          <input
            type="search"
            value={search}
            placeholder="e.g. example.com/spring"
            onInput={(e) => setSearch(e.currentTarget.value)}
          />
        </label>
        {accountTags.length > 0 && (
          <label class="tag-filter">
            Tag{' '}
            <select id="tag-filter" value={tag} onChange={(e) => setTag(e.currentTarget.value)}>
              <option value="">All codes</option>
              {accountTags.map((t) => (
                <option key={t.name} value={t.name}>
                  {t.name} ({formatCount(t.codeCount)})
                </option>
              ))}
            </select>
          </label>
        )}
        <label class="tag-filter">
          Show{' '}
          <select id="status-filter" value={statusFilter} onChange={(e) => setStatusFilter(e.currentTarget.value)}>
            {Object.entries(STATUS_FILTERS).map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ErrorBox error={error} />
      {loading && !data && <Loading what="codes" />}
      {data && rows.length === 0 && (
        <p class="empty">{q || tag ? noMatch(tag, q) : 'No codes yet: create one, or upload a CSV.'}</p>
      )}
      {rows.length > 0 && (
        <table class="codes" aria-busy={loading}>
          <thead>
            <tr>
              <th>Preview</th>
              <th>Name</th>
              <th>Status</th>
              <th>ID</th>
              <th>Content</th>
              <th>Style</th>
              <th class="number">Scans (30 days)</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((code) => (
              <tr key={code.id} data-code-id={code.id}>
                <td>
                  <QrImage svg={code.svg} alt={`QR code ${code.id}`} class="thumb" />
                </td>
                <td class="name-cell">
                  {code.name ? <Link to={`/codes/${code.id}`}>{code.name}</Link> : <span class="hint">—</span>}
                  <TagLabels names={code.tags} colors={colors} />
                </td>
                <td>
                  <StatusBadge status={code.status} state={code.state} />
                </td>
                <td>
                  <Link to={`/codes/${code.id}`}>{code.id}</Link>
                </td>
                <td class="content-cell">{describeContent(code.type, code.content)}</td>
                <td>{code.design.style}</td>
                <td class="number">
                  <Link to={`/codes/${code.id}/analytics`}>{formatCount(code.scanCount)}</Link>
                </td>
                <td>{formatDateTime(code.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="pager">
        <button
          type="button"
          class="secondary"
          disabled={cursors.length === 1}
          onClick={() => setCursors(cursors.slice(0, -1))}
        >
          Previous
        </button>
        <span>Page {cursors.length}</span>
        <button
          type="button"
          class="secondary"
          disabled={!data?.codes.pageInfo.hasNextPage}
          onClick={() => setCursors([...cursors, data!.codes.pageInfo.endCursor])}
        >
          Next
        </button>
      </div>
    </section>
  );
}
