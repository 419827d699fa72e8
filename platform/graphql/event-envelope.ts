import { Field, ObjectType, registerEnumType, type ClassType } from 'type-graphql';
import type { StreamedEvent } from '../events/event-stream.js';

/**
 * Every subscription delivers an envelope: which event happened (`type`, the webhook event name in
 * SCREAMING_CASE: `identity.manual_review` → IDENTITY_MANUAL_REVIEW), when, and the record as it is
 * after it (docs/graphql-conventions.md).
 */

export interface EventEnvelope<T> {
  type: string;
  occurredAt: Date;
  node: T;
}

/** `identity.manual_review` → `IDENTITY_MANUAL_REVIEW`. */
export const eventTypeOf = (event: string) => event.toUpperCase().replace(/\./g, '_');

/** The `XEventType` enum of these event names and the `XEvent` envelope type around `node`; `what` names the node without an article. */
export function EventEnvelopeType<T extends object>(name: string, node: ClassType<T>, events: Record<string, string>, what: string) {
  const values = Object.fromEntries(Object.keys(events).map((event) => [eventTypeOf(event), eventTypeOf(event)]));
  registerEnumType(values, {
    name: `${name}EventType`,
    description: `What happened to the ${what}`,
    valuesConfig: Object.fromEntries(Object.entries(events).map(([event, description]) => [eventTypeOf(event), { description }])),
  });

  @ObjectType(`${name}Event`, {
    description: `${what[0].toUpperCase()}${what.slice(1)} change: what happened, when, and the record after it`,
  })
  class Envelope {
    @Field(() => values, { description: 'What happened' })
    type!: string;

    @Field({ description: 'When it was committed' })
    occurredAt!: Date;

    @Field(() => node, { description: `The ${what} as it is after the event` })
    node!: T;
  }
  return Envelope;
}

/** The envelope of a streamed outbox event, its snapshot turned into the node. */
export function envelopeOf<T>(event: StreamedEvent, toNode: (snapshot: Record<string, unknown>) => T): EventEnvelope<T> {
  return { type: eventTypeOf(event.payload.event), occurredAt: new Date(event.payload.timestamp), node: toNode(event.snapshot) };
}

/** An outbox snapshot (dates as ISO strings) as a GraphQL node: the named fields back to Dates. */
export function reviveDates<T>(snapshot: Record<string, unknown>, dates: readonly string[]): T {
  return Object.fromEntries(
    Object.entries(snapshot).map(([k, v]) => [k, dates.includes(k) && typeof v === 'string' ? new Date(v) : v]),
  ) as T;
}
