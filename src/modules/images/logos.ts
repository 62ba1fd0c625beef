// Logos: fetched once from a design's logo_url (SSRF-checked), stored by content hash, and
// read back from the database (through a small cache) whenever a code is rendered.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { DomainError } from '../../shared/errors.ts';
import type { RenderLogo } from './design.ts';
import { fetchLogo, LogoFetchError, type LogoFetchOptions } from './logo-fetch.ts';

export function createLogos(db: Knex, fetchOptions: LogoFetchOptions) {
  const cache = new LRUCache<string, RenderLogo>({ max: 200 });

  return {
    /** Fetches and stores the logo behind a URL; a failed fetch is a 422 that says why. */
    async ensureFromUrl(url: string): Promise<string> {
      let logo;
      try {
        logo = await fetchLogo(url, fetchOptions);
      } catch (err) {
        if (!(err instanceof LogoFetchError)) throw err;
        throw new DomainError('validation_failed', `design.logo_url: ${err.reason}`, [{ path: 'design.logo_url', message: err.reason }]);
      }
      const id = createHash('sha256').update(logo.bytes).digest('hex');
      const existing = await db('logos').where({ id }).first();
      if (!existing) {
        await db('logos')
          .insert({ id, content_type: logo.contentType, width: logo.width, height: logo.height, data_base64: logo.bytes.toString('base64'), created_at: Date.now() })
          .onConflict('id')
          .ignore();
      }
      return id;
    },

    /** The stored logo ready to embed, or null when the id is null. */
    async forRender(id: string | null): Promise<RenderLogo | null> {
      if (!id) return null;
      const cached = cache.get(id);
      if (cached) return cached;
      const row = await db('logos').where({ id }).first();
      if (!row) return null;
      const logo = { dataUri: `data:${row.content_type};base64,${row.data_base64}`, width: row.width, height: row.height };
      cache.set(id, logo);
      return logo;
    },
  };
}

export type Logos = ReturnType<typeof createLogos>;
