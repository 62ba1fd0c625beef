// What codes ask of the tags module, declared here and handed in by services.ts (the tags
// module owns the `tags` and `code_tags` tables; codes run no SQL on them).
import type { Knex } from 'knex';
import type { Queryable } from '../../db/transaction.ts';

export interface CodeTagging {
  /** Each code's tag names sorted by name (codes without tags are absent). */
  namesOf(codeIds: readonly string[], q: Queryable): Promise<Map<string, string[]>>;
  /**
   * Sets each code's tags to the named ones inside the caller's transaction, creating the
   * account's missing tags; a 422 on `path` past the account's tag cap.
   */
  set(
    accountId: string,
    codes: readonly { codeId: string; names: readonly string[] }[],
    trx: Knex.Transaction,
    path?: string,
  ): Promise<void>;
  /** A subquery of the ids of the account's codes carrying any of the named tags. */
  codeIdsWithAny(accountId: string, names: readonly string[]): Knex.QueryBuilder;
}
