// SQL on logos (stored once by content hash) and account_logos (what each account holds and
// pays for). Nothing here knows about codes: which logos codes use is asked of the codes store.
import type { Knex } from 'knex';

export interface StoredLogo {
  id: string;
  contentType: string;
  width: number;
  height: number;
  bytes: Buffer;
}

export interface Holding {
  accountId: string;
  logoId: string;
}

export function createLogoStore(db: Knex) {
  return {
    async find(id: string): Promise<{ contentType: string; width: number; height: number; dataBase64: string } | null> {
      const row = await db('logos').where({ id }).first();
      return row
        ? { contentType: row.content_type, width: row.width, height: row.height, dataBase64: row.data_base64 }
        : null;
    },

    /** Stores the logo, or marks the stored one as just used (a collection leaves it alone). */
    async save(logo: StoredLogo, now: number): Promise<void> {
      const row = {
        id: logo.id,
        content_type: logo.contentType,
        width: logo.width,
        height: logo.height,
        data_base64: logo.bytes.toString('base64'),
        created_at: now,
        touched_at: now,
      };
      await db('logos').insert(row).onConflict('id').merge({ touched_at: now });
    },

    async holds(accountId: string, logoId: string): Promise<boolean> {
      return (await db('account_logos').where({ account_id: accountId, logo_id: logoId }).first()) !== undefined;
    },

    /** Starts (or renews) the account's holding of a stored logo. */
    async hold(accountId: string, logoId: string, bytes: number, now: number): Promise<void> {
      await db('account_logos')
        .insert({ account_id: accountId, logo_id: logoId, bytes, stored_at: now })
        .onConflict(['account_id', 'logo_id'])
        .merge({ stored_at: now });
    },

    async bytesHeld(accountId: string): Promise<number> {
      const row = await db('account_logos').where({ account_id: accountId }).sum({ total: 'bytes' }).first();
      return Number(row?.total ?? 0);
    },

    /** Holdings not renewed since `before` (of one account, or of all), at most `limit`. */
    async staleHoldings(before: number, limit: number, accountId?: string): Promise<Holding[]> {
      const query = db('account_logos').select('account_id', 'logo_id').where('stored_at', '<', before).limit(limit);
      if (accountId) query.where({ account_id: accountId });
      const rows: { account_id: string; logo_id: string }[] = await query;
      return rows.map((row) => ({ accountId: row.account_id, logoId: row.logo_id }));
    },

    /** Ends these holdings unless renewed since `before`. */
    async release(holdings: Holding[], before: number): Promise<void> {
      for (const { accountId, logoId } of holdings) {
        await db('account_logos')
          .where({ account_id: accountId, logo_id: logoId })
          .where('stored_at', '<', before)
          .delete();
      }
    },

    /** Logos nobody holds and nobody stored since `before`, at most `limit`. */
    async unheldLogos(before: number, limit: number): Promise<string[]> {
      const rows: { id: string }[] = await db('logos')
        .select('id')
        .where('touched_at', '<', before)
        .whereNotExists(db('account_logos').select(db.raw('1')).whereRaw('account_logos.logo_id = logos.id'))
        .limit(limit);
      return rows.map((row) => row.id);
    },

    /** Deletes these logos if still unheld and untouched since `before`. */
    async deleteUnheld(ids: string[], before: number): Promise<number> {
      if (ids.length === 0) return 0;
      return db('logos')
        .whereIn('id', ids)
        .where('touched_at', '<', before)
        .whereNotExists(db('account_logos').select(db.raw('1')).whereRaw('account_logos.logo_id = logos.id'))
        .delete();
    },
  };
}

export type LogoStore = ReturnType<typeof createLogoStore>;
