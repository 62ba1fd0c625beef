// A subscription stream that stays tied to its credential. The credential is checked once when a
// stream opens; without more, a stream of a key revoked later would deliver for as long as the
// client kept it open. So the credential is checked again every `recheckMs` (API_KEY_CACHE_TTL_MS:
// no longer than a revocation takes to reach a request on another instance anyway), the stream
// ends with an error once it no longer holds, and every stream ends after `maxMs`.
import { Repeater } from 'graphql-yoga';
import { DomainError } from '../shared/errors.ts';

export interface StreamGuard {
  recheckMs: number;
  maxMs: number;
  /** Whether the stream's credential still may see what it streams. */
  stillAllowed: () => Promise<boolean>;
}

export function guardedStream<T>(
  source: AsyncIterableIterator<T>,
  { recheckMs, maxMs, stillAllowed }: StreamGuard,
): AsyncIterableIterator<T> {
  return new Repeater<T>(async (push, stop) => {
    const recheck = setInterval(() => {
      stillAllowed().then(
        (allowed) => {
          if (!allowed)
            stop(
              new DomainError(
                'unauthorized',
                'The credential of this stream was revoked, expired or lost its scope; the stream ends.',
              ),
            );
        },
        (err: unknown) => stop(err),
      );
    }, recheckMs);
    // Clients reconnect (SSE does it by itself); a bound keeps no stream alive for ever.
    const lifetime = setTimeout(() => stop(), maxMs);
    void (async () => {
      for await (const item of source) await push(item);
      stop();
    })().catch((err: unknown) => stop(err));
    await stop;
    clearInterval(recheck);
    clearTimeout(lifetime);
    await source.return?.();
  });
}
