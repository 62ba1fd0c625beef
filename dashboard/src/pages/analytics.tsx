// Analytics of the account, or of one code: the range pickers, then the numbers for that range.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { AccountAnalytics } from '../analytics/account-analytics.tsx';
import { CodeAnalytics } from '../analytics/code-analytics.tsx';
import { RangePicker } from '../analytics/range-picker.tsx';
import { defaultRange, rangeProblem, type Range } from '../analytics/range.ts';
import { CodeId } from '../components/copy-button.tsx';
import { Link } from '../components/link.tsx';
import { ErrorBox, Loading } from '../components/messages.tsx';
import { codeTitle } from '../format.ts';
import { usePageTitle } from '../page-focus.ts';
import { useQuery } from '../use-query.ts';
import { useT } from '../i18n/index.ts';

/** What the heading names the code by: a small query of its own, so the heading does not wait for the numbers. */
const CODE_TITLE = 'query CodeTitle($id: ID!) { code(id: $id) { id type content name scanUrl } }';

function CodeAnalyticsPage({ codeId }: { codeId: string }) {
  const t = useT();
  const { data, error } = useQuery<{ code: Parameters<typeof codeTitle>[0] | null }>(CODE_TITLE, { id: codeId });
  // The heading waits for the name, so that focus and the announcement read it, not the id.
  if (!data && !error) return <Loading what={t.analytics.loadingCode} />;
  // An id this account does not have (or a failed query): the id, all there is to say.
  const title = t.analytics.titleOf(data?.code ? codeTitle(data.code) : codeId);
  return (
    <AnalyticsLayout title={title} codeId={codeId}>
      {(range) => <CodeAnalytics id={codeId} range={range} />}
    </AnalyticsLayout>
  );
}

function AnalyticsLayout({
  title,
  codeId,
  children,
}: {
  title: string;
  codeId?: string;
  children: (range: Range) => ComponentChildren;
}) {
  const t = useT();
  usePageTitle(title);
  const [range, setRange] = useState(defaultRange);
  const problem = rangeProblem(range, t);
  return (
    <section>
      <div class="page-head">
        <h1>{title}</h1>
        {codeId && <Link to={`/codes/${codeId}`}>{t.analytics.editCode}</Link>}
      </div>
      {codeId && <CodeId id={codeId} />}
      <RangePicker range={range} onChange={setRange} />
      {problem ? <ErrorBox error={problem} /> : children(range)}
    </section>
  );
}

export function AnalyticsPage({ codeId }: { codeId?: string }) {
  const t = useT();
  if (codeId) return <CodeAnalyticsPage codeId={codeId} />;
  return <AnalyticsLayout title={t.analytics.title}>{(range) => <AccountAnalytics range={range} />}</AnalyticsLayout>;
}
