// What codes ask of tags, handed to them by services.ts (codes import nothing of this module
// but its schemas): the tag names of codes, setting a code's tags by name (creating the
// account's missing tags on the fly; a deleted code is first set to none) and the codes carrying
// any of some tags.
import type { Knex } from 'knex';
import { validationFailed } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import type { Queryable } from '../../db/transaction.ts';
import { tagKey } from './schemas.ts';
import type { LinkChange, TagsStore } from './store.ts';

/** The 422 of an account at TAGS_PER_ACCOUNT; `path` is the field that asked for more. */
export const tooManyTags = (max: number, path: string) =>
  validationFailed([
    {
      path,
      message:
        `would give the account more than ${max} tags (TAGS_PER_ACCOUNT); delete unused tags or reuse ` +
        `existing ones`,
    },
  ]);

/**
 * Runs in the tagging transaction with the links it made and removed: the scans module moves
 * the codes' scan counts into and out of the tags' rollups (handed in by services.ts).
 */
export type OnRetagged = (changes: readonly LinkChange[], trx: Knex.Transaction) => Promise<void>;

export function createCodeTagging(store: TagsStore, maxPerAccount: number, onRetagged: OnRetagged) {
  return {
    namesOf: (codeIds: readonly string[], q: Queryable) => store.namesForCodes(codeIds, q),

    /**
     * Sets each code's tags to the named ones (replacing what it had), inside the caller's
     * transaction. Names match the account's tags ignoring case; the others become new tags,
     * refused with a 422 on `path` past TAGS_PER_ACCOUNT.
     */
    async set(
      accountId: string,
      codes: readonly { codeId: string; names: readonly string[] }[],
      trx: Knex.Transaction,
      path = 'tags',
    ): Promise<void> {
      const wanted = new Map<string, string>();
      for (const code of codes)
        for (const name of code.names) if (!wanted.has(tagKey(name))) wanted.set(tagKey(name), name);
      let ids = await store.idsByKeys(accountId, [...wanted.keys()], trx);
      // In key order, so that two calls making the same new tags take their locks alike.
      const missing = [...wanted].filter(([key]) => !ids.has(key)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      if (missing.length > 0) {
        // Checked, not locked: calls racing at the cap may pass it by the tags they make at once.
        if ((await store.countForAccount(accountId, trx)) + missing.length > maxPerAccount)
          throw tooManyTags(maxPerAccount, path);
        const now = new Date();
        await store.insert(
          missing.map(([key, name]) => ({ id: newId('tag'), accountId, name, key, color: null, createdAt: now })),
          trx,
        );
        // Ours, or the ones a concurrent call made first (its insert won; ours was skipped).
        ids = new Map([
          ...ids,
          ...(await store.idsByKeys(
            accountId,
            missing.map(([key]) => key),
            trx,
            true,
          )),
        ]);
      }
      const changes = await store.replaceCodeTags(
        codes.map((code) => ({ codeId: code.codeId, tagIds: code.names.map((name) => ids.get(tagKey(name))!) })),
        trx,
      );
      await onRetagged(changes, trx);
    },

    /** The id of the account's tag of that name (case ignored), or null. */
    idOf: (accountId: string, name: string) => store.idOfKey(accountId, tagKey(name)),

    /** A subquery of the ids of the account's codes carrying any of the named tags. */
    codeIdsWithAny: (accountId: string, names: readonly string[]) =>
      store.codeIdsWithAnyKey(accountId, names.map(tagKey)),
  };
}
