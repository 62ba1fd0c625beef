// API versions: which exist, which is current, and the headers that tell clients so. Every
// answer names the version that produced it (`API-Version`); a retired version also carries
// Deprecation (RFC 9745) and Sunset (RFC 8594) headers and a link to its successor.
import type { Middleware } from 'koa';
import type { AppState } from './context.ts';
import { PROBLEM_CONTENT_TYPE, problemFor } from './problem.ts';

export const API_VERSIONS = ['v1', 'v2'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** What unversioned answers (GraphQL, health, docs) report, and what new clients should use. */
export const CURRENT_API_VERSION: ApiVersion = 'v2';

export interface VersionLifecycle {
  /** From when clients are told to move on. */
  deprecatedAt?: Date;
  /** When the version stops answering. */
  sunsetAt?: Date;
  successor?: ApiVersion;
}

/** Today no version is deprecated; retiring one is a line here (policy in docs/api.md). */
export const VERSION_LIFECYCLES: Readonly<Record<ApiVersion, VersionLifecycle>> = Object.freeze({ v1: {}, v2: {} });

const isApiVersion = (value: string): value is ApiVersion => (API_VERSIONS as readonly string[]).includes(value);

/** The headers every answer of a version carries. */
export function versionHeaders(version: ApiVersion, lifecycle: VersionLifecycle = {}): Record<string, string> {
  const headers: Record<string, string> = { 'API-Version': version };
  if (lifecycle.deprecatedAt) headers.Deprecation = `@${Math.floor(lifecycle.deprecatedAt.getTime() / 1000)}`;
  if (lifecycle.sunsetAt) headers.Sunset = lifecycle.sunsetAt.toUTCString();
  if (lifecycle.successor) headers.Link = `</${lifecycle.successor}>; rel="successor-version"`;
  return headers;
}

const VERSIONED_PATH = /^\/(v\d+)(?:\/|$)/;

/**
 * Sets the version headers before anything else runs, so errors carry them too, and answers a
 * path under a version that does not exist (`/v3/…`) with a 404 listing the supported ones.
 */
export function apiVersioning(
  lifecycles: Readonly<Record<ApiVersion, VersionLifecycle>> = VERSION_LIFECYCLES,
): Middleware<AppState> {
  return async (ctx, next) => {
    const requested = VERSIONED_PATH.exec(ctx.path)?.[1];
    if (requested !== undefined && !isApiVersion(requested)) {
      ctx.set('API-Version', CURRENT_API_VERSION);
      ctx.status = 404;
      ctx.type = PROBLEM_CONTENT_TYPE;
      ctx.body = {
        ...problemFor(
          'not_found',
          `API version '${requested}' does not exist. Supported versions: ${API_VERSIONS.join(', ')}.`,
        ),
        instance: ctx.path,
        request_id: ctx.state.requestId,
        supported_versions: API_VERSIONS,
      };
      return;
    }
    const version = requested !== undefined && isApiVersion(requested) ? requested : CURRENT_API_VERSION;
    ctx.set(versionHeaders(version, lifecycles[version]));
    await next();
  };
}
