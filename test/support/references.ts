import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Supergraph } from '@apollo/federation-internals';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind as AstKind,
  parse,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type OperationDefinitionNode,
} from 'graphql';
import type { ServiceName } from '../../platform/auth/principal.js';
import type { Route } from '../../platform/rest/route.js';

/**
 * What the generated suites know about the API: which arguments and fields name a record of the
 * caller's (a "reference", by kind), which service serves each root field, and sample values
 * for everything else. Derived from the committed supergraph and the REST route table, so a new
 * route or field is covered the day it lands; one whose reference kind cannot be told makes the
 * suites fail, naming it (add it to the tables below).
 */

export const KINDS = [
  'User',
  'ApiClient',
  'IdentityVerification',
  'DocumentVerification',
  'LivenessSession',
  // a liveness session's submission credential (names the session in its submissions)
  'LivenessSessionToken',
  'CognitiveKycCheck',
  'DeviceAssessment',
  'IpAnalysis',
  'AmlScreening',
  'AmlMatch',
  'AmlBatch',
  'WatchlistSubscription',
  'WatchlistAlert',
  'Webhook',
  'WebhookDelivery',
  'Notification',
  'NotificationBatch',
  'NotificationTemplate',
  'NotificationRecipient',
  'RiskEvaluation',
  'RiskRule',
  'RiskAccount',
  'BiometricDedupCheck',
  'MobileMoneyVerification',
  'AddressVerification',
  'PhoneVerification',
  'EmailVerification',
  'BusinessVerification',
  'UserErasure',
  'VerificationFlow',
] as const;
export type RecordKind = (typeof KINDS)[number];

/** Arguments and input fields that name a record whatever the field (REST names in camelCase). */
const BY_NAME: Record<string, RecordKind | 'shared'> = {
  userId: 'User',
  clientId: 'ApiClient',
  webhookId: 'Webhook',
  deliveryId: 'WebhookDelivery',
  screeningId: 'AmlScreening',
  matchId: 'AmlMatch',
  subscriptionId: 'WatchlistSubscription',
  notificationId: 'Notification',
  accountId: 'RiskAccount',
  ruleId: 'RiskRule',
  sender: 'RiskAccount',
  receiver: 'RiskAccount',
  to: 'NotificationRecipient',
  recipientId: 'NotificationRecipient',
  template: 'NotificationTemplate',
  // reference data every organization shares (screening list snapshots)
  snapshotId: 'shared',
  sessionToken: 'LivenessSessionToken',
};
/** Id-like names that name no record of the caller's (values the caller chooses, or admin input). */
const NOT_REFERENCES = new Set([
  'organizationId',
  'transactionId',
  'sessionId',
  // a challenge of the session its sessionToken names (that token is the reference)
  'challengeId',
  // a business's tax identifier, as the caller declares it
  'taxId',
  // the audit trail's filter: a record of any kind (entries of the caller's organization only)
  'resourceId',
]);
/** Where a name means something else on one field (`field.argument`). */
const BY_FIELD_AND_NAME: Record<string, RecordKind> = {
  'notifications.batchId': 'NotificationBatch',
  // a recipient profile's id is the integrator's user id
  'notificationUpdatedForUser.userId': 'NotificationRecipient',
  // Form B's verify routes name the verification in the body
  'verifyPhoneCode.verificationId': 'PhoneVerification',
  'verifyEmailCode.verificationId': 'EmailVerification',
};
/** `id` / `name` arguments name the record the field returns; these return types are other views of one. */
const RETURN_TYPE_KIND: Record<string, RecordKind> = {
  DeleteNotificationRecipientPayload: 'NotificationRecipient',
};

/** Root fields only the operator may call (X-Admin-Secret): an API key must be refused. */
export const ADMIN_FIELDS = [
  'createApiClient',
  'revokeApiClient',
  'rotateApiClientKey',
  'importScreeningList',
  'importIpFeed',
  'rotateOrganizationDataKey',
  'reencryptOrganizationData',
];

/** Fields whose value must be new on every call (a repeat is a 409 by design). */
export const UNIQUE_FIELDS = ['transaction_id', 'transactionId'];

const SUPERGRAPH_SDL = readFileSync(path.resolve('schema', 'supergraph.graphql'), 'utf8');
/** The graph as clients see it. */
export const SCHEMA = Supergraph.build(SUPERGRAPH_SDL).apiSchema().toGraphQLJSSchema();

const SERVICE_OF_FIELD = new Map<string, ServiceName>();
for (const definition of parse(SUPERGRAPH_SDL).definitions) {
  if (definition.kind !== AstKind.OBJECT_TYPE_DEFINITION) continue;
  for (const field of definition.fields ?? []) {
    const join = field.directives?.find((d) => d.name.value === 'join__field');
    const graph = join?.arguments?.find((a) => a.name.value === 'graph')?.value;
    if (graph?.kind === AstKind.ENUM)
      SERVICE_OF_FIELD.set(`${definition.name.value}.${field.name.value}`, graph.value.toLowerCase() as ServiceName);
  }
}

/** The subgraph serving a root field (its API key's service). */
export function serviceOf(rootType: 'Query' | 'Mutation' | 'Subscription', field: string): ServiceName {
  const service = SERVICE_OF_FIELD.get(`${rootType}.${field}`);
  if (!service) throw new Error(`no subgraph serves ${rootType}.${field}`);
  return service;
}

/**
 * The kind of record an argument (or input field, or REST parameter in camelCase) of a root field
 * names; `null` when it names none; throws for an id-like name it cannot tell.
 */
export function referenceKind(rootField: GraphQLField<unknown, unknown>, name: string): RecordKind | 'shared' | null {
  const byField = BY_FIELD_AND_NAME[`${rootField.name}.${name}`];
  if (byField) return byField;
  if (BY_NAME[name]) return BY_NAME[name];
  if (NOT_REFERENCES.has(name)) return null;
  if (name === 'id' || (name === 'name' && getNamedType(rootField.type).name.startsWith('NotificationTemplate'))) {
    const returned = recordTypeOf(getNamedType(rootField.type));
    const kind = RETURN_TYPE_KIND[returned] ?? (KINDS as readonly string[]).find((k) => k === returned);
    if (!kind) throw new Error(`${rootField.name}(${name}): which record does it name? Add ${returned} to RETURN_TYPE_KIND`);
    return kind as RecordKind;
  }
  if (/(Id|_id|ID)$/.test(name)) throw new Error(`${rootField.name}: ${name} looks like a reference; add it to BY_NAME`);
  return null;
}

/** The record type a field is about: a payload's record, a connection's or an event's node, or the type itself. */
function recordTypeOf(type: GraphQLNamedType): string {
  if (!isObjectType(type)) return type.name;
  const fields = type.getFields();
  if (fields.userErrors) {
    const record = Object.values(fields).find((f) => f.name !== 'userErrors' && isObjectType(getNamedType(f.type)));
    if (record) return getNamedType(record.type).name;
  }
  if (fields.nodes && fields.pageInfo) return getNamedType(fields.nodes.type).name;
  if (fields.node && fields.occurredAt) return getNamedType(fields.node.type).name;
  return type.name;
}

export function rootFieldOf(rootType: 'Query' | 'Mutation' | 'Subscription', name: string): GraphQLField<unknown, unknown> {
  const field = rootTypeOf(rootType).getFields()[name];
  if (!field) throw new Error(`no root field ${rootType}.${name}`);
  return field;
}

export function rootTypeOf(rootType: 'Query' | 'Mutation' | 'Subscription'): GraphQLObjectType {
  const type = { Query: SCHEMA.getQueryType(), Mutation: SCHEMA.getMutationType(), Subscription: SCHEMA.getSubscriptionType() }[rootType];
  if (!type) throw new Error(`the graph has no ${rootType} type`);
  return type;
}

/** The root type and field a REST route's operation calls. */
export function routeRootField(route: Route): { rootType: 'Query' | 'Mutation'; field: GraphQLField<unknown, unknown> } {
  const operation = parse(route.operation).definitions.find((d): d is OperationDefinitionNode => d.kind === AstKind.OPERATION_DEFINITION)!;
  const rootType = operation.operation === 'mutation' ? 'Mutation' : 'Query';
  const selection = operation.selectionSet.selections[0];
  if (selection.kind !== AstKind.FIELD) throw new Error(`${route.path}: the operation must select a root field`);
  return { rootType, field: rootFieldOf(rootType, selection.name.value) };
}

export const camelCase = (name: string) => name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

const SCALAR_SAMPLES: Record<string, unknown> = {
  String: 'sample',
  ID: 'sample',
  Int: 1,
  Float: 1.5,
  Boolean: true,
  DateTime: '2026-01-01T00:00:00.000Z',
  DateTimeISO: '2026-01-01T00:00:00.000Z',
};

/** Valid inputs of types no route example covers (a route's example is used where a route calls the field). */
const INPUT_EXAMPLES: Record<string, Record<string, unknown>> = {
  CreateRiskRuleInput: { name: 'Large transfer', condition: 'txn.amount > 500000.0', action: 'REVIEW' },
};

/** A value of an input type: its example, else required input fields only, the first enum value, a plain scalar. */
export function sampleValue(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sampleValue(type.ofType);
  if (isListType(type)) return [sampleValue(type.ofType)];
  if (isEnumType(type)) return type.getValues()[0].value;
  if (isInputObjectType(type)) {
    if (INPUT_EXAMPLES[type.name]) return structuredClone(INPUT_EXAMPLES[type.name]);
    return Object.fromEntries(
      Object.values(type.getFields())
        .filter((f) => isNonNullType(f.type) && f.defaultValue === undefined)
        .map((f) => [f.name, sampleValue(f.type)]),
    );
  }
  if (isScalarType(type)) return SCALAR_SAMPLES[type.name] ?? {};
  throw new Error(`no sample for ${String(type)}`);
}

/** A selection of every field reachable without arguments, `depth` object levels deep. */
export function selectionOf(type: GraphQLNamedType, depth = 3): string {
  if (!isObjectType(type)) return isScalarType(type) || isEnumType(type) ? '' : '{ __typename }';
  const fields = Object.values((type as GraphQLObjectType).getFields()).filter((f) => f.args.every((a) => !isNonNullType(a.type)));
  const parts: string[] = [];
  for (const f of fields) {
    const named = getNamedType(f.type);
    if (isScalarType(named) || isEnumType(named)) parts.push(f.name);
    else if (depth > 1) parts.push(`${f.name} ${selectionOf(named, depth - 1)}`);
  }
  return `{ ${parts.length ? parts.join(' ') : '__typename'} }`;
}
