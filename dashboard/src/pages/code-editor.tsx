// Create or edit a code: content, design (with a live preview) and routing rules, saved in one
// mutation; an existing code can also be deleted from here.
import { useState } from 'preact/hooks';
import { AppLinksFields } from '../code-form/app-links-fields.tsx';
import { PreviewFields } from '../code-form/preview-fields.tsx';
import { PageFields } from '../code-form/page-fields.tsx';
import { ContentFields } from '../code-form/content-fields.tsx';
import { DeleteCode } from '../code-form/delete-code.tsx';
import { DomainSelect } from '../code-form/domain-select.tsx';
import { DesignFields } from '../code-form/design-fields.tsx';
import { ImageDownload } from '../code-form/image-download.tsx';
import { LifecycleFields } from '../code-form/lifecycle-fields.tsx';
import { LivePreview, usePreview } from '../code-form/live-preview.tsx';
import { createInput, emptyForm, previewInput, updateInput, type CodeForm } from '../code-form/model.ts';
import { RoutingRules } from '../code-form/routing-rules.tsx';
import { TagField } from '../code-form/tag-field.tsx';
import { CODE_FIELDS, formOf, type SavedCode } from '../code-form/saved-code.ts';
import { CodeId } from '../components/copy-button.tsx';
import { Link } from '../components/link.tsx';
import { codeTitle } from '../format.ts';
import { ErrorBox, Loading, Notice } from '../components/messages.tsx';
import { ApiError, graphql } from '../graphql.ts';
import { flashMessage, navigate } from '../router.ts';
import { useQuery } from '../use-query.ts';
import { useTouched } from '../components/touched.ts';
import { usePageTitle } from '../page-focus.ts';
import { useT } from '../i18n/index.ts';

const CODE = `query Code($id: ID!) { code(id: $id) { ${CODE_FIELDS} } }`;
const CREATE =
  'mutation Create($input: CreateCodeInput!) { createCode(input: $input) { id type content name scanUrl } }';
const UPDATE = `mutation Update($id: ID!, $input: UpdateCodeInput!) {
  updateCode(id: $id, input: $input) { ${CODE_FIELDS} }
}`;

function CodeEditor({ initial }: { initial: SavedCode | null }) {
  const t = useT().editor;
  const [saved, setSaved] = useState(initial);
  const [form, setForm] = useState<CodeForm>(() => (initial ? formOf(initial) : emptyForm()));
  const [saveError, setSaveError] = useState<ApiError | null>(null);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<string | null>(flashMessage);
  usePageTitle(saved ? t.editTitle(codeTitle(saved)) : t.newCode);
  const drawn = previewInput(form);
  const preview = usePreview('input' in drawn ? drawn.input : null, 'problems' in drawn ? drawn.problems : [], saved);
  const touched = useTouched();
  // Until the next save, its problems are the ones to show; after it, the preview's, each once its
  // field was touched (a blank new form is not wrong yet) or a save was tried.
  const problems = saveError ? saveError.problems : preview.problems.filter(touched.shows);

  const change = (patch: Partial<CodeForm>) => {
    setForm({ ...form, ...patch });
    setSaveError(null);
    setNotice(null);
  };

  async function save(event: Event) {
    event.preventDefault();
    touched.submit();
    const built = saved ? updateInput(form) : createInput(form);
    if ('problems' in built)
      return setSaveError(
        new ApiError(
          built.problems.map((p) => `${p.path} ${p.message}`).join('; '),
          'VALIDATION_FAILED',
          built.problems,
        ),
      );
    setSaving(true);
    try {
      if (saved) {
        const { updateCode } = await graphql<{ updateCode: SavedCode }>(UPDATE, { id: saved.id, input: built.input });
        setSaved(updateCode);
        setForm(formOf(updateCode));
        setNotice(t.saved);
      } else {
        const { createCode } = await graphql<{ createCode: Parameters<typeof codeTitle>[0] & { id: string } }>(CREATE, {
          input: built.input,
        });
        navigate(`/codes/${createCode.id}`, t.created(codeTitle(createCode)));
      }
    } catch (err) {
      setSaveError(err instanceof ApiError ? err : new ApiError(String(err), 'ERROR'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <section>
      <div class="page-head">
        <h1>{saved ? codeTitle(saved) : t.newCode}</h1>
        {saved && form.type === 'url' && <Link to={`/codes/${saved.id}/analytics`}>{t.analytics}</Link>}
      </div>
      {saved && <CodeId id={saved.id} />}
      {notice && <Notice>{notice}</Notice>}
      <form class="editor" onSubmit={save} onInput={touched.mark} onFocusOut={touched.mark} noValidate>
        <div class="editor-fields">
          <ContentFields form={form} typeEditable={!saved} problems={problems} onChange={change} />
          {form.type === 'url' && (
            <DomainSelect
              value={form.domain}
              saved={saved !== null}
              problems={problems}
              onChange={(domain) => change({ domain })}
            />
          )}
          <TagField value={form.tags} problems={problems} onChange={(tags) => change({ tags })} />
          <LifecycleFields
            type={form.type}
            lifecycle={form.lifecycle}
            problems={problems}
            onChange={(lifecycle) => change({ lifecycle })}
          />
          <DesignFields design={form.design} problems={problems} onChange={(design) => change({ design })} />
          {form.type === 'url' ? (
            <>
              <RoutingRules enabled={form.routingEnabled} rules={form.rules} problems={problems} onChange={change} />
              <AppLinksFields links={form.links} problems={problems} onChange={(links) => change({ links })} />
              <PreviewFields
                preview={form.socialPreview}
                problems={problems}
                onChange={(socialPreview) => change({ socialPreview })}
              />
              <PageFields page={form.page} problems={problems} onChange={(page) => change({ page })} />
            </>
          ) : (
            <p class="hint">{t.staticHint}</p>
          )}
        </div>
        <aside class="editor-side">
          <LivePreview preview={preview} shown={!preview.problems.length || problems.length > 0} />
          {saved && <ImageDownload id={saved.id} scanUrl={saved.scanUrl} />}
          <ErrorBox error={saveError} title={t.notSaved} />
          <div class="actions">
            <button type="submit" disabled={saving}>
              {saving ? t.saving : saved ? t.saveChanges : t.create}
            </button>
            {saved && <DeleteCode id={saved.id} title={codeTitle(saved)} scanUrl={saved.scanUrl} />}
          </div>
        </aside>
      </form>
    </section>
  );
}

export function NewCodePage() {
  return <CodeEditor initial={null} />;
}

export function EditCodePage({ id }: { id: string }) {
  const t = useT().editor;
  usePageTitle(t.codeTitle(id));
  const { data, error, loading } = useQuery<{ code: SavedCode | null }>(CODE, { id });
  if (error) return <ErrorBox error={error} />;
  if (loading || !data) return <Loading what={t.loadingCode} />;
  if (!data.code) {
    return (
      <section>
        <h1>{t.notFound}</h1>
        <p>
          {t.noSuchCode(<code>{id}</code>, (words) => (
            <Link to="/codes">{words}</Link>
          ))}
        </p>
      </section>
    );
  }
  return <CodeEditor initial={data.code} />;
}
