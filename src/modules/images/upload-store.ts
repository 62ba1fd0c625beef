// SQL on `images`: the PNGs a workspace uploaded. Every query is scoped by account, so another
// account's id reads as missing.
import type { Knex } from 'knex';
import { fromMillis, toMillis } from '../../db/rows.ts';
import type { UploadSourceType } from './upload-decode.ts';

export interface UploadedImage {
  id: string;
  accountId: string;
  name: string | null;
  sourceType: UploadSourceType;
  width: number;
  height: number;
  /** Size of the stored PNG. */
  bytes: number;
  sha256: string;
  createdAt: Date;
}

/** The position of the last item of a page (newest first). */
export interface ImagePosition {
  key: number;
  id: string;
}

interface ImageRow {
  id: string;
  account_id: string;
  name: string | null;
  source_type: string;
  width: number;
  height: number;
  bytes: number;
  sha256: string;
  created_at: number | string;
}

const COLUMNS = ['id', 'account_id', 'name', 'source_type', 'width', 'height', 'bytes', 'sha256', 'created_at'];

const imageOf = (row: ImageRow): UploadedImage => ({
  id: row.id,
  accountId: row.account_id,
  name: row.name,
  sourceType: row.source_type as UploadSourceType,
  width: Number(row.width),
  height: Number(row.height),
  bytes: Number(row.bytes),
  sha256: row.sha256,
  createdAt: fromMillis(row.created_at),
});

export function createUploadStore(db: Knex) {
  return {
    async insert(image: UploadedImage, png: Buffer): Promise<void> {
      await db('images').insert({
        id: image.id,
        account_id: image.accountId,
        name: image.name,
        source_type: image.sourceType,
        width: image.width,
        height: image.height,
        bytes: image.bytes,
        sha256: image.sha256,
        data_base64: png.toString('base64'),
        created_at: toMillis(image.createdAt),
      });
    },

    /** The account's images, newest first, after `after`, at most `limit`. */
    async list(accountId: string, after: ImagePosition | null, limit: number): Promise<UploadedImage[]> {
      const query = db('images').select(COLUMNS).where({ account_id: accountId });
      if (after)
        query.andWhere((w) =>
          w
            .where('created_at', '<', after.key)
            .orWhere((tie) => tie.where('created_at', after.key).andWhere('id', '<', after.id)),
        );
      const rows: ImageRow[] = await query
        .orderBy([
          { column: 'created_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit);
      return rows.map(imageOf);
    },

    /** The account's image, or null (also for another account's id). */
    async find(accountId: string, id: string): Promise<UploadedImage | null> {
      const row: ImageRow | undefined = await db('images').select(COLUMNS).where({ account_id: accountId, id }).first();
      return row ? imageOf(row) : null;
    },

    /** The stored PNG of the account's image and its size, or null. */
    async png(accountId: string, id: string): Promise<{ png: Buffer; width: number; height: number } | null> {
      const row: { data_base64: string; width: number; height: number } | undefined = await db('images')
        .select('data_base64', 'width', 'height')
        .where({ account_id: accountId, id })
        .first();
      return row
        ? { png: Buffer.from(row.data_base64, 'base64'), width: Number(row.width), height: Number(row.height) }
        : null;
    },

    async delete(accountId: string, id: string): Promise<boolean> {
      return (await db('images').where({ account_id: accountId, id }).delete()) > 0;
    },
  };
}

export type UploadStore = ReturnType<typeof createUploadStore>;
