// What the code is called and encodes: its name, a URL (dynamic: its scans are counted and
// routed) or the content of a static type, and notes. The type is chosen when the code is
// created and cannot change afterwards.
import { Field, Select } from '../components/field.tsx';
import type { FieldProblem } from '../graphql.ts';
import { CODE_TYPES, contentTemplate, type CodeForm } from './model.ts';

const TYPE_LABELS: Record<string, string> = {
  url: 'URL (dynamic)',
  text: 'Text',
  email: 'Email',
  phone: 'Phone call',
  sms: 'Text message',
  wifi: 'Wi-Fi network',
  vcard: 'Contact (vCard)',
  geo: 'Location',
};

interface ContentFieldsProps {
  form: CodeForm;
  /** Only a new code can choose its type. */
  typeEditable: boolean;
  problems: FieldProblem[];
  onChange: (patch: Partial<CodeForm>) => void;
}

export function ContentFields({ form, typeEditable, problems, onChange }: ContentFieldsProps) {
  const input = (value: string) => onChange({ content: value });
  return (
    <fieldset>
      <legend>Content</legend>
      <Field
        label="Name"
        id="code-name"
        path="name"
        problems={problems}
        hint="For you: it tells this code apart in the list and is found by the search. Optional."
      >
        <input
          id="code-name"
          maxLength={200}
          placeholder="Spring poster, Berlin"
          value={form.name}
          onInput={(e) => onChange({ name: e.currentTarget.value })}
        />
      </Field>
      <Field label="Type" id="code-type" path="type" problems={problems}>
        {typeEditable ? (
          <Select
            id="code-type"
            value={form.type}
            options={CODE_TYPES}
            labels={TYPE_LABELS}
            onChange={(type) => onChange({ type, content: contentTemplate(type) })}
          />
        ) : (
          <input id="code-type" value={TYPE_LABELS[form.type] ?? form.type} readOnly />
        )}
      </Field>
      {form.type === 'url' ? (
        <Field
          label="Destination URL"
          id="code-content"
          path="content"
          problems={problems}
          hint="Where scans go unless a routing rule matches; it can change after printing."
        >
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
      {form.type === 'url' && typeEditable ? (
        <Field
          label="Custom slug"
          id="code-slug"
          path="slug"
          problems={problems}
          hint="The end of the scan URL, e.g. spring-sale; 3-64 letters, digits, _ and -. Left empty: a random one."
        >
          <input
            id="code-slug"
            maxLength={64}
            pattern="[A-Za-z0-9_\-]{3,64}"
            placeholder="random"
            value={form.slug}
            onInput={(e) => onChange({ slug: e.currentTarget.value })}
          />
        </Field>
      ) : null}
      {form.type === 'url' ? null : (
        <Field
          label={form.type === 'text' ? 'Text' : 'Content (JSON)'}
          id="code-content"
          path="content"
          problems={problems}
          hint={
            form.type === 'text'
              ? 'Encoded as it is; static codes have no scan URL.'
              : 'The fields of this type, as in the API (see docs/codes.md, Static codes).'
          }
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
      <Field
        label="Notes"
        id="code-notes"
        path="notes"
        problems={problems}
        hint="Anything worth remembering: where it is printed, until when. Optional."
      >
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
