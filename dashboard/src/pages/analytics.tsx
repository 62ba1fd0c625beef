// Analytics of the account, or of one code: the range pickers, then the numbers for that range.
import { useState } from 'preact/hooks';
import { AccountAnalytics } from '../analytics/account-analytics.tsx';
import { CodeAnalytics } from '../analytics/code-analytics.tsx';
import { RangePicker } from '../analytics/range-picker.tsx';
import { defaultRange, rangeProblem } from '../analytics/range.ts';
import { Link } from '../components/link.tsx';
import { ErrorBox } from '../components/messages.tsx';

export function AnalyticsPage({ codeId }: { codeId?: string }) {
  const [range, setRange] = useState(defaultRange);
  const problem = rangeProblem(range);
  return (
    <section>
      <div class="page-head">
        <h1>{codeId ? `Analytics of ${codeId}` : 'Analytics'}</h1>
        {codeId && <Link to={`/codes/${codeId}`}>Edit the code</Link>}
      </div>
      <RangePicker range={range} onChange={setRange} />
      {problem ? (
        <ErrorBox error={problem} />
      ) : codeId ? (
        <CodeAnalytics id={codeId} range={range} />
      ) : (
        <AccountAnalytics range={range} />
      )}
    </section>
  );
}
