// Webhook endpoints, events and deliveries as the domain sees them.

/** Event types an endpoint can subscribe to. */
export const EVENT_TYPES = [
  'scan.created',
  'code.created',
  'code.updated',
  'code.deleted',
  'codes.bulk_created',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Sent by POST /webhooks/:id/test only, to that endpoint, whatever it subscribes to. */
export const TEST_EVENT = 'webhook.test';
export type AnyEventType = EventType | typeof TEST_EVENT;

export interface Webhook {
  id: string;
  accountId: string;
  url: string;
  description: string | null;
  events: EventType[];
  /** Only events about these codes; null means every code of the account. */
  codeIds: string[] | null;
  secret: string;
  /** Still signs beside the new secret until previousSecretExpiresAt (a rotation's overlap). */
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: Date | null;
  /** The first failed attempt since the last success, or null while the endpoint is healthy. */
  failingSince: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export const DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'failed', 'paused'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface Delivery {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: AnyEventType;
  eventCreatedAt: Date;
  status: DeliveryStatus;
  attempts: number;
  /** When the next attempt is due; while delivering, the end of the worker's lease. */
  nextAttemptAt: Date | null;
  lastAttemptAt: Date | null;
  lastResponseStatus: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
  createdAt: Date;
}

export interface Attempt {
  attempt: number;
  worker: string;
  startedAt: Date;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
}

/** A delivery with what GET …/deliveries/:id adds: the event's data and every attempt. */
export interface DeliveryDetail extends Delivery {
  data: unknown;
  history: Attempt[];
}

/** An outbox event, before it is written. */
export interface NewEvent {
  id: string;
  accountId: string;
  type: AnyEventType;
  /** The event's `data`, serialized once so every attempt sends the same bytes. */
  payload: string;
  createdAt: Date;
}

/**
 * Whether an enabled endpoint wants an event of this type about these codes. An endpoint
 * limited to some codes only hears of events naming one of them (so never of codes created
 * after it was registered).
 */
export function wants(
  endpoint: Pick<Webhook, 'enabled' | 'events' | 'codeIds'>,
  type: EventType,
  codeIds: readonly string[],
): boolean {
  if (!endpoint.enabled || !endpoint.events.includes(type)) return false;
  if (endpoint.codeIds === null) return true;
  return codeIds.some((id) => endpoint.codeIds!.includes(id));
}

/** The secrets that sign right now: the current one, and the previous one during its overlap. */
export function activeSecrets(
  endpoint: Pick<Webhook, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>,
  now: Date,
): string[] {
  const overlap = endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now;
  return overlap ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}
