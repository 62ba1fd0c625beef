// A request to a URL whose address was just checked (checkedAddress): the socket connects to
// that address whatever the name resolves to now, so DNS rebinding cannot slip past the check,
// while the Host header and the certificate check keep the URL's own name. A fresh socket per
// request (no agent), closed with it. Webhook deliveries and single sign-on's issuer calls.
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { ResolvedAddress } from './target.ts';

export interface PinnedRequestOptions {
  method: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}

export function pinnedRequest(url: URL, target: ResolvedAddress, options: PinnedRequestOptions): http.ClientRequest {
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    process.nextTick(() => {
      if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
      else callback(null, target.address, target.family);
    });
  };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const requestOptions = {
    hostname: host,
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method: options.method,
    headers: options.headers,
    agent: false as const,
    lookup,
    signal: options.signal,
  };
  return url.protocol === 'https:'
    ? https.request({ ...requestOptions, servername: isIP(host) === 0 ? host : undefined })
    : http.request(requestOptions);
}
