// A simulated scan's visitor (routing's explain), read as the scan path reads a real request:
// the routing service sits below scans, so services.ts hands this in.
import type { SimulatedVisitorOf } from '../routing/index.ts';
import type { ClientInfo } from './client-info.ts';
import { splitKey } from './visitor.ts';

export function simulatedVisitorOf(clientInfo: ClientInfo): SimulatedVisitorOf {
  return ({ ip, userAgent, acceptLanguage }) => ({
    ...clientInfo.userAgent(userAgent),
    country: ip ? clientInfo.countryOfIp(ip) : null,
    languages: clientInfo.languages(acceptLanguage),
    visitorKey: splitKey(ip, userAgent),
  });
}
