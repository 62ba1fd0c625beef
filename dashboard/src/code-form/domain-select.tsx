// Which domain a url code's scan URL is on: the service's own, or one of the account's verified
// domains (pages/domains.tsx). Changing it moves the code: a new scan URL and image.
import { Field, Select } from '../components/field.tsx';
import type { FieldProblem } from '../graphql.ts';
import { useT } from '../i18n/index.ts';
import { useQuery } from '../use-query.ts';

const VERIFIED = '{ domains { hostname status } }';

export function DomainSelect({
  value,
  saved,
  problems,
  onChange,
}: {
  value: string;
  saved: boolean;
  problems: FieldProblem[];
  onChange: (domain: string) => void;
}) {
  const t = useT().editor.domain;
  const { data } = useQuery<{ domains: { hostname: string; status: string }[] }>(VERIFIED, {});
  const verified = (data?.domains ?? []).filter((d) => d.status === 'verified').map((d) => d.hostname);
  // The code's own domain stays listed, verified or not.
  const options = ['', ...new Set([...verified, ...(value ? [value] : [])])];
  if (options.length === 1) return null;
  return (
    <Field label={t.label} id="code-domain" path="domain" problems={problems} hint={saved ? t.movingHint : t.newHint}>
      <Select id="code-domain" value={value} options={options} labels={{ '': t.own }} onChange={onChange} />
    </Field>
  );
}
