// multipart/form-data bodies of one file (image uploads), parsed with busboy as they stream:
// 415 for another body type, 413 past the byte limit (the rest is not read), 422 for a form
// without exactly the one file field. The file's bytes are kept in memory (the limit is small);
// its declared name and type are kept only as the caller's label: the content is judged alone.
import busboy from 'busboy';
import type { Middleware } from 'koa';
import { DomainError, validationFailed } from '../shared/errors.ts';
import type { AppState } from './context.ts';

export interface FormFile {
  bytes: Buffer;
  /** The file name the form gave, or null. */
  name: string | null;
}

declare module 'koa' {
  interface Request {
    file?: FormFile;
  }
}

const fileProblem = (message: string) => validationFailed([{ path: 'file', message }]);

function readForm(ctx: Parameters<Middleware<AppState>>[0], field: string, maxBytes: number): Promise<FormFile> {
  return new Promise((resolve, reject) => {
    let form: busboy.Busboy;
    try {
      form = busboy({ headers: ctx.req.headers, limits: { files: 1, fields: 0, fileSize: maxBytes, parts: 2 } });
    } catch {
      return reject(new DomainError('bad_request', 'The multipart/form-data body has no boundary.'));
    }
    let file: FormFile | null = null;
    let settled = false;
    const fail = (err: DomainError) => {
      if (settled) return;
      settled = true;
      ctx.req.unpipe(form);
      ctx.req.resume(); // drain what is left unread, so the answer can be sent
      reject(err);
    };
    form.on('file', (name, stream, info) => {
      if (name !== field) {
        stream.resume();
        return fail(fileProblem(`send the image in a form field named "${field}" (got "${name}")`));
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () =>
        fail(new DomainError('payload_too_large', `The file is larger than ${maxBytes} bytes, the most accepted.`)),
      );
      stream.on('end', () => {
        file = { bytes: Buffer.concat(chunks), name: info.filename ? info.filename.slice(0, 200) : null };
      });
    });
    form.on('field', (name) => fail(fileProblem(`send only the file field "${field}" (got a field "${name}")`)));
    form.on('filesLimit', () => fail(fileProblem('send one file per request')));
    form.on('fieldsLimit', () => fail(fileProblem(`send only the file field "${field}"`)));
    form.on('partsLimit', () => fail(fileProblem('send one file per request')));
    form.on('error', () => fail(new DomainError('bad_request', 'The multipart/form-data body is malformed.')));
    form.on('close', () => {
      if (!file) return fail(fileProblem(`send the image as a file in the form field "${field}"`));
      settled = true;
      resolve(file);
    });
    ctx.req.pipe(form);
  });
}

/** Puts the one file of a multipart/form-data body in `ctx.request.file`. */
export function singleFileBody(field: string, maxBytes: number): Middleware<AppState> {
  return async (ctx, next) => {
    if (!ctx.is('multipart/form-data')) {
      throw new DomainError(
        'unsupported_media_type',
        `Send the image as multipart/form-data with a file field "${field}" ` +
          `(got '${ctx.get('Content-Type') || 'none'}').`,
      );
    }
    ctx.request.file = await readForm(ctx, field, maxBytes);
    await next();
  };
}
