// The public JSON of a tag. The zod schema is the contract (it feeds the OpenAPI document).
import { z } from 'zod';
import type { Tag } from './store.ts';

export const tagResourceSchema = z
  .object({
    id: z.string().meta({ example: 'tag_8kD2mQ9xT4pL0aZc7VbN' }),
    object: z.literal('tag'),
    name: z.string().meta({ example: 'print' }),
    color: z.string().nullable().meta({ example: '#e8710a' }),
    code_count: z.int().meta({ description: 'How many of the account’s codes carry the tag.' }),
    created_at: z.iso.datetime(),
  })
  .meta({ id: 'Tag' });
export type TagJson = z.output<typeof tagResourceSchema>;

export function presentTag(tag: Tag): TagJson {
  return {
    id: tag.id,
    object: 'tag',
    name: tag.name,
    color: tag.color,
    code_count: tag.codeCount,
    created_at: tag.createdAt.toISOString(),
  };
}
