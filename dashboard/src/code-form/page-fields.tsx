// A url code's hosted page: a business card, an app download page or a list of links that the
// scan answers instead of redirecting (docs/pages.md). Chosen from a template, edited as JSON;
// a business card's photo is uploaded here and named in the JSON (photo_image_id).
import { Field } from '../components/field.tsx';
import type { FieldProblem } from '../graphql.ts';
import { useT } from '../i18n/index.ts';
import { ImageUpload } from './image-upload.tsx';
import { businessCardOf, PAGE_KINDS, pageTemplate, withPhoto } from './page-form.ts';

interface PageFieldsProps {
  page: string;
  problems: FieldProblem[];
  onChange: (page: string) => void;
}

export function PageFields({ page, problems, onChange }: PageFieldsProps) {
  const t = useT().editor.page;
  const card = businessCardOf(page);
  return (
    <fieldset>
      <legend>{t.legend}</legend>
      <p class="hint">{t.hint}</p>
      <Field label={t.template} id="code-page-template">
        <select
          id="code-page-template"
          value=""
          onChange={(e) => e.currentTarget.value && onChange(pageTemplate(e.currentTarget.value))}
        >
          <option value="">{t.chooseKind}</option>
          {PAGE_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t.kinds[kind]}
            </option>
          ))}
        </select>
      </Field>
      <Field label={t.json} id="code-page" path="page" problems={problems} hint={t.jsonHint}>
        <textarea
          id="code-page"
          rows={8}
          spellcheck={false}
          value={page}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      </Field>
      {card && (
        <ImageUpload
          id="code-page-photo"
          label={t.photo}
          hint={t.photoHint}
          path="page.photo_image_id"
          problems={problems}
          imageId={typeof card.photo_image_id === 'string' ? card.photo_image_id : ''}
          alt={t.photoAlt}
          removeLabel={t.removePhoto}
          onChange={(imageId) => onChange(withPhoto(card, imageId))}
        />
      )}
    </fieldset>
  );
}
