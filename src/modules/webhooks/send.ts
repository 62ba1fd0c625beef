// One delivery attempt over HTTP: POST the signed body to the checked, pinned address with a
// time limit covering DNS, connect and the answer. Redirects are not followed (a receiver that
// moved must be re-registered); only a 2xx answer counts as delivered.
import { pinnedRequest } from './pinned-request.ts';
import { checkedAddress, TargetRefused, type TargetPolicy } from './target.ts';

export interface AttemptResult {
  ok: boolean;
  /** The receiver's status code, or null when no answer came. */
  status: number | null;
  durationMs: number;
  /** Why the attempt failed, for the delivery log; null on success. */
  error: string | null;
}

export interface SendOptions {
  timeoutMs: number;
  policy: TargetPolicy;
}

const USER_AGENT = 'qr-service-webhooks/1';

export async function sendWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const timedOut = () => ({
    ok: false,
    status: null,
    durationMs: elapsed(),
    error: `no answer within ${options.timeoutMs / 1000} s`,
  });
  try {
    const url = new URL(rawUrl);
    const target = await Promise.race([
      checkedAddress(url, options.policy),
      new Promise<never>((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(new Error('timeout')), { once: true }),
      ),
    ]);
    return await new Promise<AttemptResult>((resolve) => {
      const req = pinnedRequest(url, target, {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': USER_AGENT,
        },
        signal: controller.signal,
      });
      req.on('error', (err: NodeJS.ErrnoException) => {
        resolve(
          controller.signal.aborted
            ? timedOut()
            : {
                ok: false,
                status: null,
                durationMs: elapsed(),
                error: `connection failed (${err.code ?? err.message})`,
              },
        );
      });
      req.on('response', (res) => {
        const status = res.statusCode ?? 0;
        const durationMs = elapsed();
        // The answer's body is not kept; the status is all a delivery needs.
        res.resume();
        req.destroy();
        if (status >= 200 && status <= 299) return resolve({ ok: true, status, durationMs, error: null });
        const location = res.headers.location;
        const error =
          status >= 300 && status <= 399
            ? `redirect not followed (HTTP ${status}${location ? ` to ${location.slice(0, 200)}` : ''})`
            : `HTTP ${status}`;
        resolve({ ok: false, status, durationMs, error });
      });
      req.end(body);
    });
  } catch (err) {
    if (err instanceof TargetRefused)
      return { ok: false, status: null, durationMs: elapsed(), error: `refused: ${err.message}` };
    if (controller.signal.aborted) return timedOut();
    return { ok: false, status: null, durationMs: elapsed(), error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}
