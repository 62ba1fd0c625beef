// A url code's social preview: the card link-preview crawlers (Slack, WhatsApp, Facebook, X, ...)
// show when the scan URL is shared; people scanning the code are redirected as before.
import { Field } from '../components/field.tsx';
import type { FieldProblem } from '../graphql.ts';
import { useT } from '../i18n/index.ts';
import type { PreviewForm, PreviewKey } from './preview-form.ts';

interface PreviewFieldsProps {
  preview: PreviewForm;
  problems: FieldProblem[];
  onChange: (preview: PreviewForm) => void;
}

export function PreviewFields({ preview, problems, onChange }: PreviewFieldsProps) {
  const t = useT().editor.socialPreview;
  const set = (key: PreviewKey, value: string) => onChange({ ...preview, [key]: value });
  return (
    <fieldset>
      <legend>{t.legend}</legend>
      <p class="hint">{t.hint}</p>
      <Field label={t.title} id="code-preview-title" path="preview.title" problems={problems}>
        <input
          id="code-preview-title"
          maxLength={120}
          value={preview.title}
          onInput={(e) => set('title', e.currentTarget.value)}
        />
      </Field>
      <Field label={t.description} id="code-preview-description" path="preview.description" problems={problems}>
        <textarea
          id="code-preview-description"
          maxLength={300}
          rows={2}
          value={preview.description}
          onInput={(e) => set('description', e.currentTarget.value)}
        />
      </Field>
      <Field label={t.image} id="code-preview-image" path="preview.imageUrl" problems={problems}>
        <input
          id="code-preview-image"
          type="url"
          placeholder="https://…"
          value={preview.imageUrl}
          onInput={(e) => set('imageUrl', e.currentTarget.value)}
        />
      </Field>
    </fieldset>
  );
}
