// Narrows the account's analytics to the codes carrying one tag (a campaign, a channel): the
// overview and weekday x hour queries take the tag's name.
import { Field, Select } from '../components/field.tsx';
import { linkTo } from '../components/link.tsx';
import { useT } from '../i18n/index.ts';
import { useAccountTagsState } from '../tags.ts';

export function TagFilter({ tag, onChange }: { tag: string; onChange: (tag: string) => void }) {
  const t = useT();
  const { tags, loaded } = useAccountTagsState();
  if (!loaded) return null;
  if (tags.length === 0) return <p class="empty tag-filter-empty">{t.analytics.tags.none(linkTo('/codes'))}</p>;
  return (
    <div class="tag-filter">
      <Field label={t.analytics.tags.codesTagged} id="analytics-tag">
        <Select
          id="analytics-tag"
          value={tag}
          options={['', ...tags.map((t) => t.name)]}
          labels={{
            '': t.analytics.tags.anyTag,
            ...Object.fromEntries(tags.map((tag) => [tag.name, t.codes.tagOption(tag.name, tag.codeCount)])),
          }}
          onChange={onChange}
        />
      </Field>
    </div>
  );
}
