// Negotiated compression (zstd, brotli or gzip, as the client accepts; koa-compress's defaults:
// brotli at quality 4, compressible types only) of JSON, documents and pages from 1 KiB up. The
// scan redirect never gets here: a lean handler answers it before Koa. Answers that carry
// their own Content-Encoding are left as they are: the precompressed dashboard and GraphiQL
// files, and GraphQL's event streams, which yoga sends with `Content-Encoding: none` so that
// live events never wait in a compressor's buffer.
import compress from 'koa-compress';

const COMPRESSION_THRESHOLD_BYTES = 1024;

export const compression = () => compress({ threshold: COMPRESSION_THRESHOLD_BYTES });
