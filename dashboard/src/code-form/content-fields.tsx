// What the code is called and encodes: its name, a URL (dynamic: its scans are counted and
// routed) or the content of a static type, and notes. The type is chosen when the code is
// created and cannot change afterwards.
import { Field, Select } from '../components/field.tsx';
import type { FieldProblem } from '../graphql.ts';
import { useT } from '../i18n/index.ts';
import { CODE_TYPES, contentTemplate, type CodeForm } from './model.ts';

interface ContentFieldsProps {
  form: CodeForm;
  /** Only a new code can choose its type. */
  typeEditable: boolean;
  problems: FieldProblem[];
  onChange: (patch: Partial<CodeForm>) => void;
}

export function ContentFields({ form, typeEditable, problems, onChange }: ContentFieldsProps) {
  const t = useT().editor.content;
  const input = (value: string) => onChange({ content: value });
  return (
    <fieldset>
      <legend>{t.legend}</legend>
      <Field label={t.name} id="code-name" path="name" problems={problems} hint={t.nameHint}>
        <input
          id="code-name"
          maxLength={200}
          placeholder={t.namePlaceholder}
          value={form.name}
          onInput={(e) => onChange({ name: e.currentTarget.value })}
        />
      </Field>
      <Field label={t.type} id="code-type" path="type" problems={problems}>
        {typeEditable ? (
          <Select
            id="code-type"
            value={form.type}
            options={CODE_TYPES}
            labels={t.types}
            onChange={(type) => onChange({ type, content: contentTemplate(type) })}
          />
        ) : (
          <input id="code-type" value={t.types[form.type] ?? form.type} readOnly />
        )}
      </Field>
      {form.type === 'url' ? (
        <Field label={t.destination} id="code-content" path="content" problems={problems} hint={t.destinationHint}>
          <input
            id="code-content"
            type="url"
            required
            placeholder="https://example.com/landing"
            value={form.content}
            onInput={(e) => input(e.currentTarget.value)}
          />
        </Field>
      ) : null}
      {form.type === 'url' && !typeEditable && form.slug ? (
        <Field label={t.slug} id="code-slug" hint={t.slugFixedHint}>
          <input id="code-slug" readOnly value={form.slug} />
        </Field>
      ) : null}
      {form.type === 'url' && typeEditable ? (
        <Field label={t.customSlug} id="code-slug" path="slug" problems={problems} hint={t.customSlugHint}>
          <input
            id="code-slug"
            maxLength={64}
            pattern="[A-Za-z0-9_\-]{3,64}"
            placeholder={t.randomSlug}
            value={form.slug}
            onInput={(e) => onChange({ slug: e.currentTarget.value })}
          />
        </Field>
      ) : null}
      {form.type === 'url' ? null : (
        <Field
          label={form.type === 'text' ? t.text : t.json}
          id="code-content"
          path="content"
          problems={problems}
          hint={form.type === 'text' ? t.textHint : t.jsonHint}
        >
          <textarea
            id="code-content"
            rows={form.type === 'text' ? 3 : 7}
            spellcheck={false}
            value={form.content}
            onInput={(e) => input(e.currentTarget.value)}
          />
        </Field>
      )}
      <Field label={t.notes} id="code-notes" path="notes" problems={problems} hint={t.notesHint}>
        <textarea
          id="code-notes"
          rows={2}
          maxLength={10_000}
          value={form.notes}
          onInput={(e) => onChange({ notes: e.currentTarget.value })}
        />
      </Field>
    </fieldset>
  );
}
