import { randomBytes } from 'node:crypto';
import type { ServiceName } from '../../platform/auth/principal.js';
import { listIndividuals } from './lists.js';
import type { RecordKind } from './references.js';
import { eventually, type TestStack } from './stack.js';
import { encodeBody } from './probes.js';
import { AMINA, passportPage } from './documents.js';
import { portrait, selfie } from './faces.js';
import { routes } from '../../rest-adapter/routes.js';

/** A listed person the suites' fixture sanctions list holds: screening them makes a match and an alert. */
export const LISTED_PERSON = { fullName: 'Amina Wanjiru Odhiambo', dateOfBirth: '1984-02-29', nationality: 'KE' };

/** Puts LISTED_PERSON on a fixture UN list (seedTenant needs a match and an alert). */
export const listPerson = (stack: TestStack) => listIndividuals(stack.databaseUrl, [LISTED_PERSON.fullName]);

/** A selfie and a passport page of the same person, base64, as POST /cognitive-kyc/verify takes them. */
export async function identityCheckImages(
  documentNumber = AMINA.documentNumber,
): Promise<{ selfieBase64: string; documentBase64: string }> {
  const [selfieImage, page] = await Promise.all([selfie('woman'), passportPage({ ...AMINA, documentNumber }, await portrait('woman'))]);
  return { selfieBase64: selfieImage.toString('base64'), documentBase64: page.toString('base64') };
}

export interface SeededTenant {
  /** A random token in every value this tenant chose (user ids, names, addresses…). */
  marker: string;
  organizationId: string;
  environment: 'live' | 'test';
  /** The verification API client's id (webhooks are configured per client). */
  clientId: string;
  /** Credentials per service, as the REST adapter and the gateway take them. */
  headers: Record<ServiceName | 'all', Record<string, string>>;
  /** One record (or more) of every kind, by kind. */
  refs: Record<RecordKind, string[]>;
  /** The ids the server made for this tenant's records. */
  serverIds: string[];
}

export interface SeedOptions {
  /** An organization to add keys to (its other environment, say); a new one when absent. */
  organizationId?: string;
  environment?: 'live' | 'test';
  /** An HTTPS URL answering 200, for the tenant's webhook. */
  webhookUrl: string;
}

/**
 * Keys for all three services and one record of every kind, made through the public API (the
 * REST routes' own bodies), every chosen value carrying the tenant's marker.
 */
export async function seedTenant(stack: TestStack, opts: SeedOptions): Promise<SeededTenant> {
  const marker = `m${randomBytes(5).toString('hex')}`;
  const environment = opts.environment ?? 'live';
  const verification = await stack.createClient({ name: `${marker} verification`, environment, organizationId: opts.organizationId });
  const organizationId = verification.organizationId;
  const risk = await stack.createClient({ name: `${marker} risk`, service: 'risk', environment, organizationId });
  const notify = await stack.createClient({ name: `${marker} notify`, service: 'notify', environment, organizationId });
  const all = await stack.createClient({ name: `${marker} whole graph`, service: 'all', environment, organizationId });
  const headers: SeededTenant['headers'] = {
    all: { authorization: `Bearer ${all.apiKey}` },
    verification: { 'x-api-key': verification.apiKey },
    risk: { authorization: `Bearer ${risk.apiKey}` },
    notify: { authorization: `Bearer ${notify.apiKey}` },
  };
  const serverIds: string[] = [verification.id, risk.id, notify.id, all.id, organizationId];
  const call = async (service: ServiceName, method: string, path: string, body?: unknown) => {
    const res = await stack.rest(method, path, body, headers[service]);
    if (res.status >= 300) throw new Error(`seeding ${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const made = (id: string) => {
    serverIds.push(id);
    return id;
  };
  const userId = `${marker}-user`;

  const webhook = await call('verification', 'POST', '/webhooks/configure', {
    clientId: verification.id,
    callbackUrl: opts.webhookUrl,
    events: ['aml.flagged', 'watchlist.alert'],
  });
  const documentRoute = routes.find((r) => r.method === 'POST' && r.path === '/verifications/document')!;
  const document = await call(
    'verification',
    'POST',
    '/verifications/document',
    encodeBody(documentRoute, { userId, documentType: 'PASSPORT', documentCountry: 'KE' }).body,
  );
  const liveness = await call('verification', 'POST', '/verifications/liveness/session', { userId });
  const addressRoute = routes.find((r) => r.method === 'POST' && r.path === '/verifications/address')!;
  const address = await call(
    'verification',
    'POST',
    '/verifications/address',
    encodeBody(addressRoute, { userId, documentType: 'UTILITY_BILL', country: 'KE', expectedAddress: `${marker} Street, Nairobi` }).body,
  );
  // after the submissions: a verification uses only those made after it started, so it stays PENDING (reviewable)
  const identity = await call('verification', 'POST', '/verifications/identity', { userId });
  // an AI identity check of the tenant's own passport (its number carries the marker)
  const cognitiveKyc = await call('verification', 'POST', '/cognitive-kyc/verify', {
    userId,
    ...(await identityCheckImages(marker.slice(0, 9).toUpperCase())),
  });
  // a business verification (its lookup in the sandbox registry, or the test environment's)
  const business = await call('verification', 'POST', '/verifications/business', {
    userId,
    businessName: `${marker} Trading Limited`,
    registrationNumber: `${marker}-REG`,
    country: 'KE',
    businessType: 'LLC',
    taxId: `${marker}-TAX`,
  });
  const device = await call('verification', 'POST', '/intelligence/device/fingerprint', {
    userId,
    sessionId: `${marker}-session`,
    fingerprint: { userAgent: `${marker}-agent`, platform: 'Linux armv8l', timezone: 'Africa/Nairobi', language: 'sw-KE' },
    ip: '102.89.34.10',
  });
  const ip = await call('verification', 'POST', '/intelligence/ip', { ip: '41.90.1.2', userId });
  // a number of the tenant's own (send limits count per number, across organizations), not one of notify's failing sandbox numbers
  const phoneNumber = `+25471${String(parseInt(marker.slice(1, 9), 16) % 1_000_000).padStart(6, '0')}9`;
  const phone = await call('verification', 'POST', '/verifications/phone', { phoneNumber, userId });
  const email = await call('verification', 'POST', '/verifications/email', { email: `${marker}@example.com`, userId });
  // the screening index loads the fixture list on a notification: wait until it matches
  const screening = await eventually(async () => {
    const res = await call('verification', 'POST', '/screening/aml', { userId, ...LISTED_PERSON });
    return res.matches?.length ? res : null;
  });
  // an enrolled face (User.biometricEnrollment) and its check
  const dedup = await call('verification', 'POST', '/biometrics/dedup/check', {
    userId,
    selfieBase64: (await portrait('woman')).toString('base64'),
  });
  // a name-mismatched mobile money account (the sandbox's …0002 wallet), the holder's name checked against the marker
  const mobileMoney = await call('verification', 'POST', '/verifications/mobile-money', {
    userId,
    phoneNumber: '+233240000002',
    provider: 'MTN_MOMO',
    country: 'GH',
    expectedName: `${marker} Holder`,
  });
  const batch = await call('verification', 'POST', '/screening/aml/batch', {
    subjects: [{ userId: `${marker}-batch-user`, fullName: `${marker} Batch Person` }],
  });
  const subscription = await call('verification', 'POST', '/monitoring/watchlist/subscribe', { userId, ...LISTED_PERSON });
  const alert = await eventually(
    async () => (await call('verification', 'GET', `/monitoring/watchlist/alerts?userId=${userId}`)).data?.[0],
  );
  const delivery = await eventually(async () => {
    const res = await stack.gql(
      `query($id: ID!) { webhookDeliveries(filter: { webhookId: $id }) { nodes { id } } }`,
      { id: webhook.id },
      headers.verification,
    );
    return res.body.data?.webhookDeliveries.nodes[0];
  });

  const template = `${marker}-template`;
  await call('notify', 'POST', '/templates', {
    name: template,
    channels: {
      email: { subject: `${marker} {{first_name}}`, html: '<p>Hello {{first_name}}</p>' },
      sms: { body: 'Hello {{first_name}}' },
    },
  });
  const recipient = `${marker}-recipient`;
  await call('notify', 'PUT', `/recipients/${recipient}`, { email: `${marker}@example.com`, phone: '+254700000001' });
  const notification = await call('notify', 'POST', '/send', {
    to: recipient,
    template,
    channels: ['email'],
    data: { first_name: marker },
  });
  const notificationBatch = await call('notify', 'POST', '/send/batch', {
    template,
    channels: ['email'],
    recipients: [{ to: `${marker}-batch@example.com`, data: { first_name: marker } }],
  });

  const account = `${marker}-account`;
  const evaluation = await call('risk', 'POST', '/evaluate', {
    transaction_id: `${marker}-tx`,
    amount: 1200,
    currency: 'KES',
    sender: account,
    receiver: `${marker}-account-2`,
  });
  const rule = `${marker}_rule`;
  await call('risk', 'PUT', `/rules/${rule}`, { condition: 'txn.amount > 999999.0', action: 'review', name: `${marker} rule` });
  const profile = await stack.gql(
    `mutation($input: SetRiskAccountProfileInput!) { setRiskAccountProfile(input: $input) { riskAccount { id } userErrors { message } } }`,
    { input: { accountId: account, userId, fullName: `${marker} Account Holder` } },
    headers.risk,
  );
  if (profile.body.errors || profile.body.data.setRiskAccountProfile.userErrors.length)
    throw new Error(`seeding setRiskAccountProfile: ${JSON.stringify(profile.body)}`);

  // an erasure of a user of the tenant's own (its other records stay for the suites)
  const erasure = await call('verification', 'POST', '/privacy/erasures', { userId: `${marker}-erased-user` });

  // a hosted flow for the user (its link is not a reference: it is a credential of its own)
  const flow = await call('verification', 'POST', '/verifications/flows', {
    userId,
    steps: ['DOCUMENT', 'PHONE'],
    redirectUrl: `https://${marker}.example.com/done`,
  });

  const refs: Record<RecordKind, string[]> = {
    User: [userId],
    ApiClient: [verification.id],
    IdentityVerification: [made(identity.id)],
    DocumentVerification: [made(document.id)],
    LivenessSession: [made(liveness.id)],
    LivenessSessionToken: [made(liveness.sessionToken)],
    CognitiveKycCheck: [made(cognitiveKyc.id)],
    DeviceAssessment: [made(device.id), made(device.deviceId)],
    IpAnalysis: [made(ip.id)],
    AmlScreening: [made(screening.id)],
    AmlMatch: [made(screening.matches[0].id)],
    AmlBatch: [made(batch.batchId ?? batch.id)],
    WatchlistSubscription: [made(subscription.id)],
    WatchlistAlert: [made(alert.id)],
    Webhook: [made(webhook.id)],
    WebhookDelivery: [made(delivery.id)],
    Notification: [made(notification.notification_id)],
    NotificationBatch: [made(notificationBatch.batch_id)],
    NotificationTemplate: [template],
    NotificationRecipient: [recipient],
    RiskEvaluation: [made(evaluation.evaluation_id)],
    RiskRule: [rule],
    RiskAccount: [account],
    BiometricDedupCheck: [made(dedup.id)],
    MobileMoneyVerification: [made(mobileMoney.id)],
    AddressVerification: [made(address.id)],
    PhoneVerification: [made(phone.id)],
    EmailVerification: [made(email.id)],
    BusinessVerification: [made(business.id)],
    UserErasure: [made(erasure.id)],
    VerificationFlow: [made(flow.id)],
  };
  return { marker, organizationId, environment, clientId: verification.id, headers, refs, serverIds };
}
