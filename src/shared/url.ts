import { z } from 'zod';

/** Longest URL we accept; longer ones break many browsers and scanners anyway. */
export const MAX_URL_LENGTH = 2048;

/** True for an absolute http(s) URL with a host: no javascript:, data:, or relative URLs. */
export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
}

export const httpUrlSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
  .refine(isHttpUrl, 'must be an absolute http:// or https:// URL');
