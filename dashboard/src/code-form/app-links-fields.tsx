// A url code's app links (where iPhone and Android scans go when no routing rule matched) and
// the UTM parameters every scan carries on to the destination.
import { Field } from '../components/field.tsx';
import type { FieldProblem } from '../graphql.ts';
import { useT } from '../i18n/index.ts';
import { OSES, UTM_KEYS, type AppTargetForm, type LinksForm, type Os, type UtmKey } from './app-links-form.ts';

const OS_LABELS: Record<Os, string> = { ios: 'iOS', android: 'Android' };
const UTM_LABELS: Record<UtmKey, string> = {
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
  utmTerm: 'utm_term',
  utmContent: 'utm_content',
};

interface LinksFieldsProps {
  links: LinksForm;
  problems: FieldProblem[];
  onChange: (links: LinksForm) => void;
}

export function AppLinksFields({ links, problems, onChange }: LinksFieldsProps) {
  const t = useT().editor.appLinks;
  const setTarget = (os: Os, patch: Partial<AppTargetForm>) =>
    onChange({ ...links, appLinks: { ...links.appLinks, [os]: { ...links.appLinks[os], ...patch } } });
  return (
    <>
      <fieldset>
        <legend>{t.legend}</legend>
        <p class="hint">{t.hint}</p>
        {OSES.map((os) => (
          <div key={os}>
            <Field
              label={t.link(OS_LABELS[os])}
              id={`code-${os}-link`}
              path={`appLinks.${os}.link`}
              problems={problems}
            >
              <input
                id={`code-${os}-link`}
                type="url"
                placeholder="https://app.example.com/item or myapp://item"
                value={links.appLinks[os].link}
                onInput={(e) => setTarget(os, { link: e.currentTarget.value })}
              />
            </Field>
            <Field
              label={t.store(OS_LABELS[os])}
              id={`code-${os}-store`}
              path={`appLinks.${os}.storeUrl`}
              problems={problems}
            >
              <input
                id={`code-${os}-store`}
                type="url"
                placeholder="https://…"
                value={links.appLinks[os].storeUrl}
                onInput={(e) => setTarget(os, { storeUrl: e.currentTarget.value })}
              />
            </Field>
            <label class="inline">
              <input
                type="checkbox"
                checked={links.appLinks[os].openCustomScheme}
                onChange={(e) => setTarget(os, { openCustomScheme: e.currentTarget.checked })}
              />{' '}
              {t.openDirectly}
            </label>
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend>{t.utmLegend}</legend>
        <p class="hint">{t.utmHint}</p>
        {UTM_KEYS.map((key) => (
          <Field key={key} label={UTM_LABELS[key]} id={`code-${key}`} path={`utm.${key}`} problems={problems}>
            <input
              id={`code-${key}`}
              maxLength={200}
              value={links.utm[key]}
              onInput={(e) => onChange({ ...links, utm: { ...links.utm, [key]: e.currentTarget.value } })}
            />
          </Field>
        ))}
      </fieldset>
    </>
  );
}
