// The fetch openid-client uses for a workspace's identity provider (discovery, keys, the token
// call): the issuer is a URL an owner typed, so every request passes the SSRF check of webhooks
// (every resolved address checked, http:// only with ALLOW_PRIVATE_NETWORK_TARGETS or in
// development) and connects to the checked address only, so DNS rebinding cannot slip past.
// Answers are size-capped and time-limited; openid-client follows no redirects.
import { checkedAddress, pinnedRequest, type TargetPolicy } from '../webhooks/index.ts';

const MAX_ANSWER_BYTES = 1_048_576;

export interface IssuerFetchOptions {
  policy: TargetPolicy;
  timeoutMs: number;
}

type FetchOptions = { body?: unknown; headers: Record<string, string>; method: string; signal?: AbortSignal };

const bodyText = (body: unknown): string | undefined =>
  body === undefined || body === null ? undefined : body instanceof URLSearchParams ? body.toString() : String(body);

/** A fetch-compatible function for openid-client's `customFetch`. */
export function issuerFetch(options: IssuerFetchOptions) {
  return async (rawUrl: string, init: FetchOptions): Promise<Response> => {
    const url = new URL(rawUrl);
    const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs), ...(init.signal ? [init.signal] : [])]);
    const target = await checkedAddress(url, options.policy);
    const body = bodyText(init.body);
    const headers = {
      ...init.headers,
      ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
    };
    return new Promise<Response>((resolve, reject) => {
      const req = pinnedRequest(url, target, { method: init.method, headers, signal });
      req.on('error', reject);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) req.destroy(new Error('the identity provider’s answer is too large'));
          else chunks.push(chunk);
        });
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
              headers.append(name, one);
          const status = res.statusCode ?? 502;
          const noBody = status === 204 || status === 304;
          resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, headers }));
        });
      });
      req.end(body);
    });
  };
}
