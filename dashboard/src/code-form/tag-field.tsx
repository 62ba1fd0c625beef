// A code's tags as comma-separated names, with the account's tags offered as suggestions. A
// name the account has no tag for becomes a new tag when the code is saved.
import type { FieldProblem } from '../graphql.ts';
import { Field } from '../components/field.tsx';
import { useT } from '../i18n/index.ts';
import { useAccountTags } from '../tags.ts';

export function TagField({
  value,
  problems,
  onChange,
}: {
  value: string;
  problems: FieldProblem[];
  onChange: (value: string) => void;
}) {
  const t = useT().editor.tags;
  const tags = useAccountTags();
  // Suggest the account's tags that the field does not hold yet, after what has been typed.
  const typed = value.split(',').map((name) => name.trim());
  const head = typed.slice(0, -1).filter((name) => name !== '');
  const taken = new Set(head.map((name) => name.toLowerCase()));
  const prefix = head.length > 0 ? `${head.join(', ')}, ` : '';
  return (
    <Field label={t.label} id="code-tags" path="tags" problems={problems} hint={t.hint}>
      <input
        id="code-tags"
        list="code-tags-known"
        autoComplete="off"
        placeholder={t.placeholder}
        value={value}
        onInput={(e) => onChange(e.currentTarget.value)}
      />
      <datalist id="code-tags-known">
        {tags
          .filter((tag) => !taken.has(tag.name.toLowerCase()))
          .map((tag) => (
            <option key={tag.name} value={`${prefix}${tag.name}`} />
          ))}
      </datalist>
    </Field>
  );
}

/** Small labels of a code's tags, in the tag's colour when it has one. */
export function TagLabels({ names, colors }: { names: string[]; colors: Map<string, string | null> }) {
  if (names.length === 0) return null;
  return (
    <span class="tags">
      {names.map((name) => {
        const color = colors.get(name) ?? null;
        return (
          <span
            key={name}
            class="tag"
            style={color ? { borderColor: color, boxShadow: `inset 0.25rem 0 0 ${color}` } : undefined}
          >
            {name}
          </span>
        );
      })}
    </span>
  );
}
