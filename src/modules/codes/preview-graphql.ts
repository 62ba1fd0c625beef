// GraphQL for a url code's social preview: the field on Code (the REST presenter's shape,
// camelCase), the input type derived from the same zod schema, and its conversion to REST's body.
import type { ObjectRef } from '@pothos/core';
import { builder } from '../../graphql/builder.ts';
import { snakeKeys } from '../../graphql/inputs.ts';
import { zodInputType } from '../../graphql/zod-inputs.ts';
import type { Code } from './model.ts';
import { presentPreview, previewSchema } from './preview.ts';

type PreviewJson = NonNullable<ReturnType<typeof presentPreview>>;

const PreviewRef = builder.objectRef<PreviewJson>('Preview').implement({
  description: 'What link-preview crawlers are shown when a url code’s scan URL is shared.',
  fields: (t) => ({
    title: t.exposeString('title', { nullable: true }),
    description: t.exposeString('description', { nullable: true }),
    imageUrl: t.exposeString('image_url', { nullable: true, description: 'The card’s image (https).' }),
  }),
});

/** Adds preview to the Code type (called by codes/graphql.ts with its CodeRef). */
export function addPreviewField(ref: ObjectRef<typeof builder.$inferSchemaTypes, Code>): void {
  builder.objectFields(ref, (t) => ({
    preview: t.field({
      type: PreviewRef,
      nullable: true,
      description: 'Url codes: the Open Graph card link-preview crawlers get instead of the redirect; null: none.',
      resolve: (code) => presentPreview(code.preview),
    }),
  }));
}

export const PreviewInputRef = zodInputType('PreviewInput', previewSchema, {
  description: 'A social preview (at least one field), replacing the code’s old one whole.',
});

/** GraphQL's preview input in REST's body shape; an explicit null stays only where it clears. */
export function previewBodyField(
  preview: typeof PreviewInputRef.$inferInput | null | undefined,
  nullClears: boolean,
): Record<string, unknown> {
  if (preview === undefined || (preview === null && !nullClears)) return {};
  return { preview: preview && snakeKeys(preview) };
}
