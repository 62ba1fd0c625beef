// The import request: which export it is, its text, whether to write, and where its codes go.
import { z } from 'zod';
import { IMPORT_FORMATS } from './model.ts';

export const importFormatSchema = z.enum(IMPORT_FORMATS, { error: `must be one of ${IMPORT_FORMATS.join(', ')}` });

export const importBodySchema = z.strictObject({
  format: importFormatSchema.meta({
    description:
      'The export: `bitly_csv` (Bitly’s CSV export of links), `shlink_csv` (Shlink’s CSV export), `shlink_json` ' +
      '(Shlink’s REST list, GET /rest/v3/short-urls), `yourls_csv` (the YOURLS url table as CSV: keyword, url, ' +
      'title, timestamp, ip, clicks), `kutt_json` (Kutt’s API list, GET /api/v2/links).',
  }),
  content: z
    .string({ error: 'must be the export’s text' })
    .min(1, 'must not be empty')
    .meta({ description: 'The export file’s text (UTF-8), as the service wrote it.' }),
  dry_run: z.boolean({ error: 'must be true or false' }).default(false).meta({
    description: 'Report what would be created and every row that cannot be, and write nothing.',
  }),
  domain: z
    .string({ error: 'must be a hostname or null' })
    .nullable()
    .optional()
    .meta({
      description:
        'Absent: each link keeps the host of its short URL, which must be a verified domain of the account ' +
        '(YOURLS rows name none and go on the service’s own). A hostname: every link goes on that verified domain. ' +
        'null: every link goes on the service’s own domain. Slugs are kept either way.',
      example: 'go.example.com',
    }),
});
export type ImportBody = z.output<typeof importBodySchema>;
