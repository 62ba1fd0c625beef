// A workspace's uploaded images (POST /v1/images): re-encoded to PNG on upload, listed, read
// back and deleted; used by codes as a logo (design.logo_image_id, copied into the logos the
// renderer draws) and by business cards as a photo (page.photo_image_id, served by the scan route).
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { DomainError, notFound, validationFailed } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import type { Principal } from '../../shared/principal.ts';
import { decodeCursor, encodeCursor } from '../codes/index.ts';
import type { Logos } from './logos.ts';
import { svgToPng } from './raster.ts';
import { embeddedRasterSvg, normaliseUpload, UploadRefused } from './upload-decode.ts';
import type { ImagePosition, UploadedImage, UploadStore } from './upload-store.ts';

export type { UploadedImage } from './upload-store.ts';

const MAX_PAGE_SIZE = 100;
/** Longest side of a business card's photo as the page and the vCard carry it. */
const PHOTO_SIDE = 256;
const SORT = '-created_at';

export const listImagesSchema = z.strictObject({
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_PAGE_SIZE, `must be at most ${MAX_PAGE_SIZE}`)
    .default(20)
    .meta({ description: `Items per page, 1 to ${MAX_PAGE_SIZE}.` }),
  cursor: z.string().max(200).optional().meta({ description: 'The `next_cursor` of the previous page.' }),
});
export type ListImagesQuery = z.output<typeof listImagesSchema>;

/** Codes of the account that name the image (as logo or photo): the codes store's answer. */
export type ImageUses = (accountId: string, imageId: string) => Promise<number>;

export interface UploadedFile {
  bytes: Buffer;
  /** The name the file was sent with, or null. */
  name: string | null;
}

export function createUploads(store: UploadStore, deps: { logos: Logos; imageUses: ImageUses }) {
  // Photos are asked for by every view of a business card; the PNG is scaled once per image.
  const photos = new LRUCache<string, Buffer>({ maxSize: 32 * 1024 * 1024, sizeCalculation: (png) => png.length });

  async function get(principal: Principal, id: string): Promise<UploadedImage> {
    const image = await store.find(principal.accountId, id);
    if (!image) throw notFound('image', id);
    return image;
  }

  return {
    /** Checks, re-encodes and stores an upload; a refused file is a 422 on `file`, nothing stored. */
    async upload(principal: Principal, file: UploadedFile): Promise<UploadedImage> {
      let normalised;
      try {
        normalised = await normaliseUpload(file.bytes);
      } catch (err) {
        if (err instanceof UploadRefused) throw validationFailed([{ path: 'file', message: err.reason }]);
        throw err;
      }
      const image: UploadedImage = {
        id: newId('img'),
        accountId: principal.accountId,
        name: file.name,
        sourceType: normalised.sourceType,
        width: normalised.width,
        height: normalised.height,
        bytes: normalised.png.length,
        sha256: createHash('sha256').update(normalised.png).digest('hex'),
        createdAt: new Date(),
      };
      await store.insert(image, normalised.png);
      return image;
    },

    /** One page of the account's images, newest first. */
    async list(principal: Principal, params: ListImagesQuery) {
      const after: ImagePosition | null = params.cursor ? decodeCursor(params.cursor, SORT) : null;
      const rows = await store.list(principal.accountId, after, params.limit + 1);
      const data = rows.slice(0, params.limit);
      const last = data[data.length - 1];
      const cursorOf = (image: UploadedImage) =>
        encodeCursor({ sort: SORT, key: image.createdAt.getTime(), id: image.id });
      return { data, nextCursor: rows.length > params.limit && last ? cursorOf(last) : null, cursorOf };
    },

    /** The caller's image, or a 404 (also for another account's id). */
    get,

    /** The stored PNG of the caller's image, or a 404. */
    async content(principal: Principal, id: string): Promise<Buffer> {
      const stored = await store.png(principal.accountId, id);
      if (!stored) throw notFound('image', id);
      return stored.png;
    },

    /** Deletes an image no code names; one in use is a 409 that says how many codes use it. */
    async remove(principal: Principal, id: string): Promise<void> {
      await get(principal, id);
      const uses = await deps.imageUses(principal.accountId, id);
      if (uses > 0)
        throw new DomainError(
          'conflict',
          `Image ${id} is the logo or photo of ${uses} code${uses === 1 ? '' : 's'}; change ` +
            `${uses === 1 ? 'it' : 'them'} first.`,
        );
      await store.delete(principal.accountId, id);
      photos.delete(`${principal.accountId} ${id}`);
    },

    /** The logo id (logos.ts) of the account's image `id`; a 422 on design.logo_image_id when it has none. */
    async logoIdOf(accountId: string, id: string): Promise<string> {
      const stored = await store.png(accountId, id);
      if (!stored)
        throw validationFailed([{ path: 'design.logo_image_id', message: 'is not an image of this workspace' }]);
      return deps.logos.ensureFromUpload(accountId, {
        contentType: 'image/png',
        bytes: stored.png,
        width: stored.width,
        height: stored.height,
      });
    },

    /** Whether the account has an image of this id. */
    exists: async (accountId: string, id: string): Promise<boolean> => (await store.find(accountId, id)) !== null,

    /** The account's image as a business card's photo (at most PHOTO_SIDE a side), or null. */
    async photo(accountId: string, id: string): Promise<Buffer | null> {
      const key = `${accountId} ${id}`;
      const cached = photos.get(key);
      if (cached) return cached;
      const stored = await store.png(accountId, id);
      if (!stored) return null;
      const { png, width, height } = stored;
      const scale = Math.min(1, PHOTO_SIDE / Math.max(width, height));
      const photo =
        scale === 1
          ? png
          : svgToPng(embeddedRasterSvg('image/png', png, width, height), Math.max(1, Math.round(width * scale)));
      photos.set(key, photo);
      return photo;
    },
  };
}

export type Uploads = ReturnType<typeof createUploads>;
