// The account's tags, for the code editor's suggestions and the code list's filter and labels.
import { useQuery } from './use-query.ts';

export interface AccountTag {
  name: string;
  color: string | null;
  codeCount: number;
}

/** The most the dashboard lists; TAGS_PER_ACCOUNT is 1000 by default, one page of the API at most 500. */
const MAX_TAGS = 500;
const TAGS = `query Tags($first: Int!) { tags(first: $first) { edges { node { name color codeCount } } } }`;

/** The account's tags in name order (the first 500), and whether they came (to tell "none" from "not yet"). */
export function useAccountTagsState(): { tags: AccountTag[]; loaded: boolean } {
  const { data } = useQuery<{ tags: { edges: { node: AccountTag }[] } }>(TAGS, { first: MAX_TAGS });
  return { tags: data?.tags.edges.map((e) => e.node) ?? [], loaded: data !== null };
}

/** The account's tags in name order (the first 500), empty while they load. */
export const useAccountTags = (): AccountTag[] => useAccountTagsState().tags;

/** Tag names as the API takes them from a comma-separated text. */
export const tagNames = (text: string): string[] =>
  text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
