import type { Knex } from 'knex';
import { inTransaction } from '../../db/transaction.ts';
import { notFound, validationFailed } from '../../shared/errors.ts';
import type { Principal } from '../../shared/principal.ts';
import type { ChangedCode } from '../codes/model.ts';
import type { CodesStore } from '../codes/store.ts';
import type { ClientInfo } from '../scans/client-info.ts';
import { splitKey } from '../scans/visitor.ts';
import { compileRouting, explain, type Explanation } from './resolver.ts';
import type { Rule, Routing } from './rule.ts';
import { MAX_RULES_PER_CODE, type ReplaceRoutingInput, type ResolveRequest, type RuleBody } from './schemas.ts';
import type { RoutingStore } from './store.ts';

export interface RoutingServiceDeps {
  db: Knex;
  codes: CodesStore;
  routing: RoutingStore;
  clientInfo: ClientInfo;
  /** Called after a code's routing changed, so caches drop it at once. */
  onCodeChanged: (code: ChangedCode) => void;
}

export interface ResolveAnswer extends Explanation {
  facts: { country: string | null; device: string | null; os: string | null; browser: string | null; is_bot: boolean; languages: string[]; time: string };
}

export function createRoutingService({ db, codes, routing, clientInfo, onCodeChanged }: RoutingServiceDeps) {
  /** The caller's url code, or 404 (unknown) / 422 (a static code has no routing). */
  async function codeOf(principal: Principal, codeId: string, trx?: Knex.Transaction) {
    const code = await codes.findById(principal.accountId, codeId, trx);
    if (!code) throw notFound('code', codeId);
    if (code.type !== 'url') {
      throw validationFailed([{ path: 'routing', message: `applies to url codes only; a ${code.type} code encodes its content directly` }]);
    }
    return code as typeof code & { slug: string; content: string };
  }

  /**
   * Runs a change to a code's rules in a transaction, bumps updated_at (and the enabled flag
   * when given), then drops the cached code.
   */
  async function change<T>(principal: Principal, codeId: string, fn: (trx: Knex.Transaction) => Promise<T>, routingEnabled?: boolean): Promise<T> {
    const { result, code } = await inTransaction(db, async (trx) => {
      const code = await codeOf(principal, codeId, trx);
      const result = await fn(trx);
      await codes.update(principal.accountId, codeId, { routingEnabled, updatedAt: new Date() }, trx);
      return { result, code };
    });
    onCodeChanged(code);
    return result;
  }

  /** The code's routing: enabled flag and rules in evaluation order. */
  async function get(principal: Principal, codeId: string): Promise<Routing> {
    return (await codeOf(principal, codeId)).routing;
  }

  return {
    get,

    /** Replaces the whole rule set (and the enabled flag) atomically. */
    async replace(principal: Principal, codeId: string, body: ReplaceRoutingInput): Promise<Routing> {
      // Like create: rules given without `enabled` are meant to work.
      const enabled = body.enabled ?? body.rules.length > 0;
      return change(principal, codeId, async (trx) => ({ enabled, rules: await routing.replaceRules(codeId, body.rules, trx) }), enabled);
    },

    /** Adds one rule; without a priority it goes after every existing rule. */
    async addRule(principal: Principal, codeId: string, body: RuleBody): Promise<Rule> {
      const current = await get(principal, codeId);
      if (current.rules.length >= MAX_RULES_PER_CODE) {
        throw validationFailed([{ path: '', message: `a code has at most ${MAX_RULES_PER_CODE} rules` }]);
      }
      // The first rule of a code that never had routing switches it on, as rules given at
      // creation do; a code whose routing was switched off with rules in place stays off.
      const enable = current.rules.length === 0 ? true : undefined;
      return change(
        principal,
        codeId,
        async (trx) => {
          const priority = body.priority ?? (await routing.maxPriority(codeId, trx)) + 1;
          return routing.insertRule(codeId, { ...body, priority, destination: body.destination ?? null }, trx);
        },
        enable,
      );
    },

    async removeRule(principal: Principal, codeId: string, ruleId: string): Promise<void> {
      await change(principal, codeId, async (trx) => {
        if (!(await routing.deleteRule(codeId, ruleId, trx))) throw notFound('rule', ruleId);
      });
    },

    /** Where a simulated scan would go, and why each rule did or did not match. Records nothing. */
    async resolve(principal: Principal, codeId: string, body: ResolveRequest): Promise<ResolveAnswer> {
      const code = await codeOf(principal, codeId);
      const ip = body.ip ?? null;
      const ua = clientInfo.userAgent(body.user_agent);
      const now = body.time ? new Date(body.time) : new Date();
      const languages = clientInfo.languages(body.accept_language);
      const country = body.country ?? (ip ? clientInfo.countryOfIp(ip) : null);
      const explanation = explain(compileRouting(code.routing), code.content, {
        now,
        country,
        device: { type: ua.device, os: ua.os },
        languages,
        ip,
        query: new URLSearchParams(body.query ?? {}),
        visitorKey: splitKey(ip, body.user_agent),
      });
      return {
        ...explanation,
        facts: { country, device: ua.device, os: ua.os, browser: ua.browser, is_bot: ua.isBot, languages, time: now.toISOString() },
      };
    },
  };
}

export type RoutingService = ReturnType<typeof createRoutingService>;
