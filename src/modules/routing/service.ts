import type { Knex } from 'knex';
import { inTransaction } from '../../db/transaction.ts';
import type { RecordAudit } from '../audit/index.ts';
import { notFound, validationFailed } from '../../shared/errors.ts';
import type { Principal } from '../../shared/principal.ts';
import { compileRouting, explain, type Explanation } from './resolver.ts';
import type { Rule, Routing } from './rule.ts';
import { MAX_RULES_PER_CODE, type ReplaceRoutingInput, type ResolveRequest, type RuleBody } from './schemas.ts';
import type { RoutingStore } from './store.ts';

/** A code as its routing sees it. */
export interface RoutedCode {
  id: string;
  type: string;
  content: unknown;
  slug: string | null;
  domain: string | null;
  routing: Routing;
}

/** What routing needs of the codes it routes; the codes module owns them (services.ts hands this in). */
export interface RoutedCodes {
  /** The account's code, or null (another account's too). */
  find(accountId: string, codeId: string, trx?: Knex.Transaction): Promise<RoutedCode | null>;
  /** After a change of its rules: bumps the code's updated_at, and its enabled flag when given. */
  touch(accountId: string, codeId: string, routingEnabled: boolean | undefined, trx: Knex.Transaction): Promise<void>;
}

/** A simulated scan's visitor, as the scan path would see the same request. */
export interface SimulatedVisitor {
  /** From the address (GeoIP), or null. */
  country: string | null;
  device: string | null;
  os: string | null;
  browser: string | null;
  isBot: boolean;
  languages: string[];
  /** The split key the scan path would bucket this visitor by. */
  visitorKey: string;
}

/** The scans module's reading of a request (User-Agent, Accept-Language, GeoIP); services.ts hands it in. */
export type SimulatedVisitorOf = (request: {
  ip: string | null;
  userAgent: string | undefined;
  acceptLanguage: string | undefined;
}) => SimulatedVisitor;

export interface RoutingServiceDeps {
  db: Knex;
  codes: RoutedCodes;
  routing: RoutingStore;
  visitorOf: SimulatedVisitorOf;
  /** Called after a code's routing changed, so caches drop it at once. */
  onCodeChanged: (code: Pick<RoutedCode, 'id' | 'slug' | 'domain'>) => void;
  /** Records the change in the audit log, in the change's transaction. */
  audit: RecordAudit;
}

export interface ResolveAnswer extends Explanation {
  facts: {
    country: string | null;
    device: string | null;
    os: string | null;
    browser: string | null;
    is_bot: boolean;
    languages: string[];
    time: string;
  };
}

export function createRoutingService({ db, codes, routing, visitorOf, onCodeChanged, audit }: RoutingServiceDeps) {
  /** The caller's url code, or 404 (unknown) / 422 (a static code has no routing). */
  async function codeOf(principal: Principal, codeId: string, trx?: Knex.Transaction) {
    const code = await codes.find(principal.accountId, codeId, trx);
    if (!code) throw notFound('code', codeId);
    if (code.type !== 'url') {
      throw validationFailed([
        { path: 'routing', message: `applies to url codes only; a ${code.type} code encodes its content directly` },
      ]);
    }
    return code as RoutedCode & { slug: string; content: string };
  }

  /**
   * Runs a change to a code's rules in a transaction, bumps updated_at (and the enabled flag
   * when given), then drops the cached code.
   */
  async function change<T>(
    principal: Principal,
    codeId: string,
    fn: (trx: Knex.Transaction) => Promise<T>,
    routingEnabled?: boolean,
  ): Promise<T> {
    const { result, code } = await inTransaction(db, async (trx) => {
      const code = await codeOf(principal, codeId, trx);
      const result = await fn(trx);
      await codes.touch(principal.accountId, codeId, routingEnabled, trx);
      const after = await codeOf(principal, codeId, trx);
      const summary = { changes: { routing: { old: code.routing, new: after.routing } } };
      await audit(principal, { action: 'routing.changed', objectType: 'code', objectId: codeId, summary }, trx);
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
      return change(
        principal,
        codeId,
        async (trx) => ({ enabled, rules: await routing.replaceRules(codeId, body.rules, trx) }),
        enabled,
      );
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
      const visitor = visitorOf({ ip, userAgent: body.user_agent, acceptLanguage: body.accept_language });
      const now = body.time ? new Date(body.time) : new Date();
      const { languages } = visitor;
      const country = body.country ?? visitor.country;
      const explanation = explain(compileRouting(code.routing), code.content, {
        now,
        country,
        device: { type: visitor.device, os: visitor.os },
        languages,
        ip,
        query: new URLSearchParams(body.query ?? {}),
        visitorKey: visitor.visitorKey,
      });
      return {
        ...explanation,
        facts: {
          country,
          device: visitor.device,
          os: visitor.os,
          browser: visitor.browser,
          is_bot: visitor.isBot,
          languages,
          time: now.toISOString(),
        },
      };
    },
  };
}

export type RoutingService = ReturnType<typeof createRoutingService>;
