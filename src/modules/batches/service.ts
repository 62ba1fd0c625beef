// A bulk call's codes as one ZIP for a print run: one image per code plus manifest.csv. The
// archive is streamed, and memory stays flat whatever the batch's size:
// - codes are read 200 at a time, in id order (keyset), never all at once;
// - backpressure runs from the socket to the renderer: Koa pipes the ZIP's output stream to the
//   response; yazl pipes each entry into that output stream (so it pauses while the output is
//   full) and asks for the next entry only when the previous one is written; an entry's image
//   is handed over in that request, and the producer renders the next image only while fewer
//   than MAX_IMAGES_AHEAD wait to be asked for. A slow client therefore slows the rendering,
//   and a client that goes away stops it;
// - images bypass the image cache of the single-image endpoint.
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import { ZipFile } from 'yazl';
import { notFound } from '../../shared/errors.ts';
import type { Principal } from '../../shared/principal.ts';
import { payloadOf, scanUrl } from '../codes/index.ts';
import type { CodesStore, CodeWithoutRouting } from '../codes/index.ts';
import type { ImageParams, ImagesService } from '../images/index.ts';
import { defuseFormula } from '../../shared/spreadsheet.ts';

/** Codes read from the database at a time (keyset pages by id). */
export const BATCH_PAGE_SIZE = 200;
/** Rendered images waiting for the ZIP writer, at most; then rendering waits for the client. */
export const MAX_IMAGES_AHEAD = 4;

const MANIFEST_COLUMNS = ['id', 'type', 'content', 'payload', 'scan_url'];

export interface BatchArchive {
  filename: string;
  /** The ZIP as it is written; destroying it (the client went away) stops the rendering. */
  stream: Readable;
}

export interface BatchesServiceDeps {
  codes: CodesStore;
  images: ImagesService;
  publicBaseUrl: string;
}

/**
 * Counts images handed to the ZIP but not yet taken by its writer, and lets the producer wait
 * until the writer catches up, or learn that the output was closed.
 */
function handoff(output: Readable) {
  let waiting = 0;
  let closed = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  output.once('close', () => {
    closed = true;
    notify();
  });
  return {
    get closed() {
      return closed;
    },
    added(): void {
      waiting++;
    },
    taken(): void {
      waiting--;
      notify();
    },
    /** Resolves when another image may be rendered: true, or false when the output is gone. */
    async room(): Promise<boolean> {
      while (!closed && waiting >= MAX_IMAGES_AHEAD) await new Promise<void>((resolve) => (wake = resolve));
      return !closed;
    },
  };
}

export function createBatchesService({ codes, images, publicBaseUrl }: BatchesServiceDeps) {
  function manifestRow(code: CodeWithoutRouting) {
    return {
      id: code.id,
      type: code.type,
      content: code.type === 'url' ? (code.content as string) : JSON.stringify(code.content),
      payload: payloadOf(code, publicBaseUrl),
      scan_url: code.slug ? scanUrl(publicBaseUrl, code.slug, code.domain) : '',
    };
  }

  /** Renders every code of the batch into the ZIP, page by page, then adds the manifest. */
  async function fill(
    zip: ZipFile,
    gate: ReturnType<typeof handoff>,
    accountId: string,
    batchId: string,
    firstPage: CodeWithoutRouting[],
    params: ImageParams,
  ) {
    const mtime = new Date();
    // PNG is deflated already; deflating it again costs time and saves nothing.
    const compress = params.format !== 'png';
    // The manifest is small next to the images (one line per code, ~150 bytes for a url code),
    // so it is kept until the end and written as the ZIP's last entry.
    const manifest: string[] = [];
    let page = firstPage;
    for (;;) {
      manifest.push(
        stringify(page.map(manifestRow), {
          header: manifest.length === 0,
          columns: MANIFEST_COLUMNS,
          cast: { string: defuseFormula },
        }),
      );
      for (const code of page) {
        if (!(await gate.room())) return;
        const image = await images.renderCodeImage(accountId, code, params);
        if (gate.closed) return;
        // Lazily, not with addBuffer: yazl keeps an added buffer referenced until the whole ZIP
        // is dropped, and the callback tells when the writer takes the image.
        let pending: Buffer | null = image;
        gate.added();
        zip.addReadStreamLazy(`${code.id}.${params.format}`, { compress, mtime, size: image.length }, (callback) => {
          const body = pending!;
          pending = null;
          gate.taken();
          callback(null, Readable.from([body], { objectMode: false }));
        });
      }
      if (page.length < BATCH_PAGE_SIZE) break;
      page = await codes.batchPage(accountId, batchId, page.at(-1)!.id, BATCH_PAGE_SIZE);
      if (page.length === 0) break;
    }
    if (gate.closed) return;
    zip.addBuffer(Buffer.from(manifest.join('')), 'manifest.csv', { mtime });
    zip.end();
  }

  return {
    /**
     * The batch's images as a streamed ZIP. Query and batch are checked before anything is
     * sent (422, 404); a failure after that can only abort the stream, and is passed to
     * `onStreamError` for logging.
     */
    async archive(
      principal: Principal,
      batchId: string,
      params: ImageParams,
      onStreamError: (err: unknown) => void,
    ): Promise<BatchArchive> {
      const firstPage = await codes.batchPage(principal.accountId, batchId, null, BATCH_PAGE_SIZE);
      // Another account's batch is not told apart from one that does not exist.
      if (firstPage.length === 0) throw notFound('batch', batchId);

      const zip = new ZipFile();
      const output = zip.outputStream as Readable;
      const gate = handoff(output);
      const fail = (err: unknown) => {
        if (output.destroyed) return;
        onStreamError(err);
        output.destroy(err instanceof Error ? err : new Error(String(err)));
      };
      zip.on('error', fail);
      fill(zip, gate, principal.accountId, batchId, firstPage, params).catch(fail);
      return { filename: `${batchId}.zip`, stream: output };
    },
  };
}

export type BatchesService = ReturnType<typeof createBatchesService>;
