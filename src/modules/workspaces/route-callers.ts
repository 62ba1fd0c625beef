// Who calls a workspaces route, as its services want it: the signed-in person (user and the
// actor the audit log records), and the context a new session records (browser, hashed address).
import { sessionOf, type AppContext } from '../../http/context.ts';
import type { CallerAddressHash } from '../../http/auth.ts';
import type { SignInContext } from '../users/index.ts';
import type { Person } from './service.ts';

export function personOf(ctx: AppContext): Person {
  const { userId, actor } = sessionOf(ctx);
  return { userId, actor };
}

export async function signInContextOf(ctx: AppContext, callerAddressHash: CallerAddressHash): Promise<SignInContext> {
  return {
    userAgent: ctx.get('User-Agent') || null,
    addressHash: await callerAddressHash(ctx.req.headers, ctx.req.socket.remoteAddress),
  };
}
