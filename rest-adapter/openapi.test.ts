import { buildSchema, parse, validate } from 'graphql';
import { createLogger } from '../platform/logger.js';
import { openApiDocument } from './openapi.js';
import { startRestAdapter } from './rest-adapter.js';
import { routes } from './routes.js';

/** The part of the graph the current routes target (the contract). */
const SCHEMA = buildSchema(/* GraphQL */ `
  scalar DateTimeISO
  enum IdentityTier {
    BASIC
    STANDARD
    ENHANCED
  }
  enum IdentityStatus {
    PENDING
    IN_PROGRESS
    MANUAL_REVIEW
    VERIFIED
    REJECTED
  }
  enum ReviewDecision {
    VERIFIED
    REJECTED
  }
  type IdentityVerification {
    id: ID!
    userId: String!
    tier: IdentityTier!
    overallStatus: IdentityStatus!
    faceMatchScore: Float
    verifiedAt: DateTimeISO
    reviewedBy: String
    reviewNotes: String
    reviewedAt: DateTimeISO
    invalidatedAt: DateTimeISO
    replacedById: ID
    restartedFromId: ID
    createdAt: DateTimeISO!
    updatedAt: DateTimeISO!
  }
  type IdentityVerificationPage {
    data: [IdentityVerification!]!
    total: Int!
    page: Int!
    limit: Int!
  }
  type CreateIdentityVerificationPayload {
    created: Boolean!
    verification: IdentityVerification!
  }
  input CreateIdentityVerificationInput {
    userId: String!
    tier: IdentityTier
  }
  input ReviewIdentityVerificationInput {
    decision: ReviewDecision!
    reviewedBy: String!
    reviewNotes: String!
  }
  enum ApiService {
    verification
    risk
    notify
  }
  enum ApiEnvironment {
    live
    test
  }
  input CreateApiClientInput {
    name: String!
    permissions: [String!]
    rateLimit: Int
    service: ApiService
    environment: ApiEnvironment
    organizationId: ID
  }
  type CreatedApiClient {
    id: ID!
    name: String!
    organizationId: ID!
    service: ApiService!
    environment: ApiEnvironment!
    apiKey: String!
    keyPrefix: String!
    permissions: [String!]!
    rateLimit: Int!
    message: String!
    createdAt: DateTimeISO!
  }
  input ConfigureWebhookInput {
    clientId: String!
    callbackUrl: String!
    events: [String!]!
  }
  type CreatedWebhook {
    id: ID!
    clientId: String!
    callbackUrl: String!
    events: [String!]!
    secret: String!
    message: String!
    active: Boolean!
    createdAt: DateTimeISO!
  }
  type Webhook {
    id: ID!
    clientId: String!
    callbackUrl: String!
    events: [String!]!
    active: Boolean!
    createdAt: DateTimeISO!
  }
  type DeletedWebhook {
    id: ID!
    active: Boolean!
    message: String!
  }
  enum IntelligenceRiskLevel {
    LOW
    MEDIUM
    HIGH
  }
  enum IpThreatType {
    VPN
    PROXY
    TOR
    DATACENTER
    KNOWN_ABUSER
    BOTNET
  }
  enum IpConnectionType {
    MOBILE
    RESIDENTIAL
    BUSINESS
    DATACENTER
    SATELLITE
  }
  enum IpFeedCategory {
    DATACENTER
    TOR
    VPN
    PROXY
    BOTNET
    MOBILE
    SATELLITE
    BUSINESS
    RESIDENTIAL
  }
  type IpGeolocation {
    country: String
    countryName: String
    region: String
    city: String
    latitude: Float
    longitude: Float
    timezone: String
  }
  type IpNetwork {
    isp: String
    organization: String
    asn: String
    connectionType: IpConnectionType
  }
  type IpThreats {
    isVpn: Boolean!
    isProxy: Boolean!
    isTor: Boolean!
    isDatacenter: Boolean!
    isKnownAbuser: Boolean!
    threatTypes: [IpThreatType!]!
  }
  type IpMatchedRange {
    feed: String!
    category: IpFeedCategory!
    network: String!
    provider: String
    service: String
    region: String
  }
  type IpAnalysis {
    id: ID!
    ip: String!
    userId: String
    version: Int!
    riskScore: Float!
    riskLevel: IntelligenceRiskLevel!
    geolocation: IpGeolocation!
    network: IpNetwork!
    threats: IpThreats!
    matchedRanges: [IpMatchedRange!]!
    checkedAt: DateTimeISO!
  }
  input AnalyzeIpInput {
    ip: String!
    userId: String
  }
  type DeviceSignals {
    emulator: Boolean!
    rooted: Boolean!
    vpn: Boolean!
    knownFraudDevice: Boolean!
    geoMismatch: Boolean!
    multipleAccounts: Int!
    deviceAge: String!
  }
  type DeviceLocation {
    country: String
    countryName: String
    city: String
    isp: String
  }
  type DeviceRiskReason {
    signal: String!
    weight: Float!
    detail: String!
  }
  type DeviceDescription {
    browser: String
    os: String
    deviceType: String
    vendor: String
    model: String
  }
  type DeviceAssessment {
    id: ID!
    userId: String!
    sessionId: String!
    deviceId: String!
    firstSeen: DateTimeISO!
    riskScore: Float!
    riskLevel: IntelligenceRiskLevel!
    signals: DeviceSignals!
    location: DeviceLocation
    ip: String
    ipDetected: Boolean!
    device: DeviceDescription!
    reasons: [DeviceRiskReason!]!
    createdAt: DateTimeISO!
  }
  input DeviceFingerprintInput {
    userAgent: String
    platform: String
    screenResolution: String
    timezone: String
    language: String
    webgl: String
    canvas: String
    ip: String
  }
  input AssessDeviceInput {
    userId: String!
    sessionId: String!
    fingerprint: DeviceFingerprintInput!
    ip: String
  }
  enum AmlList {
    SANCTIONS
    PEP
    ADVERSE_MEDIA
    LAW_ENFORCEMENT
  }
  enum AmlStatus {
    CLEAR
    POTENTIAL_MATCH
    CONFIRMED_MATCH
  }
  enum AmlRiskLevel {
    LOW
    MEDIUM
    HIGH
  }
  enum AmlMatchResolution {
    OPEN
    TRUE_POSITIVE
    FALSE_POSITIVE
  }
  enum AmlMatchDecision {
    TRUE_POSITIVE
    FALSE_POSITIVE
  }
  enum AmlBatchStatus {
    PENDING
    PROCESSING
    COMPLETED
  }
  enum AmlCallbackStatus {
    PENDING
    DELIVERED
    FAILED
  }
  type AmlMatchToken {
    query: String!
    matched: String
    how: String!
    score: Float!
    weight: Float!
  }
  type AmlMatchQualifier {
    kind: String!
    effect: Float!
    detail: String!
  }
  type AmlMatchExplanation {
    nameScore: Float!
    tokens: [AmlMatchToken!]!
    qualifiers: [AmlMatchQualifier!]!
  }
  type AmlMatch {
    id: ID!
    listName: String!
    source: String!
    kind: AmlList!
    externalId: String!
    entityType: String!
    primaryName: String!
    matchedName: String!
    score: Float!
    explanation: AmlMatchExplanation!
    programs: [String!]!
    addedDate: String
    listVersion: String!
    resolution: AmlMatchResolution!
    resolvedBy: String
    resolutionReason: String
    resolvedAt: DateTimeISO
  }
  type AmlListVersion {
    source: String!
    version: String!
    kind: AmlList!
  }
  type AmlScreening {
    id: ID!
    userId: String!
    fullName: String!
    dateOfBirth: String
    nationality: String
    documentNumber: String
    matchThreshold: Float!
    lists: [AmlList!]!
    status: AmlStatus!
    riskLevel: AmlRiskLevel!
    matchCount: Int!
    matches: [AmlMatch!]!
    listsChecked: [String!]!
    listVersions: [AmlListVersion!]!
    batchId: ID
    checkedAt: DateTimeISO!
    resolvedAt: DateTimeISO
    createdAt: DateTimeISO!
    updatedAt: DateTimeISO!
  }
  type AmlScreeningPage {
    data: [AmlScreening!]!
    total: Int!
    page: Int!
    limit: Int!
  }
  type AmlBatchResult {
    position: Int!
    userId: String!
    fullName: String!
    status: String!
    screeningId: ID
    riskLevel: AmlRiskLevel
    matchCount: Int
    error: String
    screening: AmlScreening
  }
  type AmlBatch {
    id: ID!
    status: AmlBatchStatus!
    total: Int!
    processed: Int!
    clearCount: Int!
    flaggedCount: Int!
    failedCount: Int!
    callbackUrl: String
    callbackStatus: AmlCallbackStatus
    callbackAttempts: Int!
    callbackLastStatusCode: Int
    callbackDeliveredAt: DateTimeISO
    callbackNextAttemptAt: DateTimeISO
    createdAt: DateTimeISO!
    completedAt: DateTimeISO
    results: [AmlBatchResult!]!
  }
  type AmlBatchAccepted {
    id: ID!
    batchId: ID!
    status: AmlBatchStatus!
    total: Int!
    callbackUrl: String
    callbackSecret: String
    message: String!
    createdAt: DateTimeISO!
  }
  input AmlScreeningInput {
    userId: String!
    fullName: String!
    dateOfBirth: String
    nationality: String
    documentNumber: String
    matchThreshold: Float
    lists: [AmlList!]
  }
  input AmlBatchInput {
    subjects: [AmlScreeningInput!]!
    callbackUrl: String
  }
  input ResolveAmlMatchInput {
    resolution: AmlMatchDecision!
    resolvedBy: String!
    reason: String!
  }
  enum WatchlistList {
    SANCTIONS
    PEP
    ADVERSE_MEDIA
  }
  enum WatchlistSubscriptionStatus {
    ACTIVE
    CANCELLED
  }
  enum WatchlistAlertStatus {
    OPEN
    REVIEWED
    DISMISSED
  }
  enum WatchlistAlertDecision {
    REVIEWED
    DISMISSED
  }
  type WatchlistSubscription {
    id: ID!
    userId: String!
    fullName: String!
    dateOfBirth: String
    nationality: String
    country: String
    status: WatchlistSubscriptionStatus!
    lists: [WatchlistList!]!
    matchThreshold: Float!
    nextScanAt: DateTimeISO
    lastScanAt: DateTimeISO
    createdAt: DateTimeISO!
    cancelledAt: DateTimeISO
  }
  type WatchlistAlertMatch {
    listName: String!
    matchScore: Float!
    matchedName: String!
    source: String!
    addedDate: String
    kind: AmlList!
    externalId: String!
    primaryName: String!
    listVersion: String!
    programs: [String!]!
  }
  type WatchlistAlert {
    id: ID!
    subscriptionId: ID!
    userId: String!
    status: WatchlistAlertStatus!
    match: WatchlistAlertMatch!
    detectedAt: DateTimeISO!
    clearedAt: DateTimeISO
    reviewedBy: String
    reviewNote: String
    reviewedAt: DateTimeISO
  }
  type WatchlistPagination {
    page: Int!
    limit: Int!
    total: Int!
  }
  type WatchlistSubscriptionList {
    data: [WatchlistSubscription!]!
    pagination: WatchlistPagination!
  }
  type WatchlistAlertList {
    data: [WatchlistAlert!]!
    pagination: WatchlistPagination!
  }
  input WatchlistSubscribeInput {
    userId: String!
    fullName: String!
    dateOfBirth: String
    nationality: String
    country: String
    lists: [WatchlistList!]
  }
  input ReviewWatchlistAlertInput {
    status: WatchlistAlertDecision!
    reviewedBy: String!
    note: String!
  }
  type Query {
    amlScreening(id: ID!): AmlScreening!
    amlScreeningsByUser(page: Int = 1, limit: Int = 20, userId: String!): AmlScreeningPage!
    amlBatch(id: ID!): AmlBatch!
    watchlistAlerts(page: Int = 1, limit: Int = 20, userId: String, status: WatchlistAlertStatus, subscriptionId: ID): WatchlistAlertList!
    watchlistSubscriptions(page: Int = 1, limit: Int = 20, status: WatchlistSubscriptionStatus, userId: String): WatchlistSubscriptionList!
    deviceAssessment(id: String!): DeviceAssessment!
    identityVerification(id: ID!): IdentityVerification!
    identityVerificationsByUser(userId: String!, page: Int, limit: Int): IdentityVerificationPage!
    webhooksByClient(clientId: String!): [Webhook!]!
  }
  type Mutation {
    screenAml(input: AmlScreeningInput!): AmlScreening!
    createAmlBatch(input: AmlBatchInput!): AmlBatchAccepted!
    resolveAmlMatch(input: ResolveAmlMatchInput!, matchId: ID!, screeningId: ID!): AmlScreening!
    subscribeWatchlist(input: WatchlistSubscribeInput!): WatchlistSubscription!
    unsubscribeWatchlist(id: ID!): WatchlistSubscription!
    reviewWatchlistAlert(input: ReviewWatchlistAlertInput!, id: ID!): WatchlistAlert!
    analyzeIp(input: AnalyzeIpInput!): IpAnalysis!
    assessDevice(input: AssessDeviceInput!): DeviceAssessment!
    createIdentityVerification(input: CreateIdentityVerificationInput!): CreateIdentityVerificationPayload!
    reviewIdentityVerification(id: ID!, input: ReviewIdentityVerificationInput!): IdentityVerification!
    restartIdentityVerification(id: ID!): IdentityVerification!
    createApiClient(input: CreateApiClientInput!): CreatedApiClient!
    configureWebhook(input: ConfigureWebhookInput!): CreatedWebhook!
    deleteWebhook(id: ID!): DeletedWebhook!
  }
  # notify
  scalar NotificationData
  enum NotificationChannel {
    email
    sms
    push
  }
  enum ChannelStatus {
    queued
    sent
    delivered
    opened
    failed
    undeliverable
  }
  enum NotificationStatus {
    dispatched
    delivered
    partially_delivered
    failed
  }
  enum NotificationBatchStatus {
    processing
    completed
  }
  type ChannelDelivery {
    channel: NotificationChannel!
    status: ChannelStatus!
    provider: String!
    latencyMs: Int
    openedAt: DateTimeISO
    reason: String
    attempts: Int!
    sentAt: DateTimeISO
    deliveredAt: DateTimeISO
    failedAt: DateTimeISO
    nextAttemptAt: DateTimeISO
    updatedAt: DateTimeISO!
  }
  type Notification {
    id: ID!
    to: String!
    recipientId: String
    template: String!
    templateVersion: Int!
    templateId: ID!
    status: NotificationStatus!
    channels: [ChannelDelivery!]!
    batchId: ID
    createdAt: DateTimeISO!
    updatedAt: DateTimeISO!
  }
  type NotificationPage {
    data: [Notification!]!
    total: Int!
    page: Int!
    limit: Int!
  }
  type BatchChannelProgress {
    channel: NotificationChannel!
    queued: Int!
    sent: Int!
    delivered: Int!
    opened: Int!
    failed: Int!
    undeliverable: Int!
  }
  type NotificationBatch {
    id: ID!
    template: String!
    templateVersion: Int!
    templateId: ID!
    channels: [NotificationChannel!]!
    total: Int!
    queued: Int!
    processed: Int!
    succeeded: Int!
    failed: Int!
    status: NotificationBatchStatus!
    createdAt: DateTimeISO!
    completedAt: DateTimeISO
    channelProgress: [BatchChannelProgress!]!
  }
  type EmailTemplate {
    subject: String!
    html: String!
  }
  type SmsTemplate {
    body: String!
  }
  type PushTemplate {
    title: String!
    body: String!
  }
  type TemplateContent {
    email: EmailTemplate
    sms: SmsTemplate
    push: PushTemplate
  }
  type NotificationTemplate {
    id: ID!
    name: String!
    version: Int!
    channels: [NotificationChannel!]!
    content: TemplateContent!
    placeholders: [String!]!
    createdAt: DateTimeISO!
  }
  type NotificationTemplatePage {
    data: [NotificationTemplate!]!
    total: Int!
    page: Int!
    limit: Int!
  }
  type WebPushKeys {
    p256dh: String!
    auth: String!
  }
  type WebPushSubscription {
    endpoint: String!
    keys: WebPushKeys!
  }
  type NotificationRecipient {
    id: String!
    email: String
    phone: String
    pushTokens: [String!]!
    webPushSubscriptions: [WebPushSubscription!]!
    locale: String
    createdAt: DateTimeISO!
    updatedAt: DateTimeISO!
  }
  type DeletedNotificationRecipient {
    id: String!
    deleted: Boolean!
  }
  type SandboxMessage {
    id: ID!
    notificationId: ID!
    channel: NotificationChannel!
    to: String!
    subject: String
    html: String
    title: String
    body: String
    createdAt: DateTimeISO!
  }
  type SandboxMessagePage {
    data: [SandboxMessage!]!
    total: Int!
    page: Int!
    limit: Int!
  }
  input SendNotificationInput {
    to: String!
    template: String!
    templateVersion: Int
    channels: [String!]!
    data: NotificationData
  }
  input BatchRecipientInput {
    to: String!
    data: NotificationData
  }
  input SendNotificationBatchInput {
    template: String!
    templateVersion: Int
    channels: [String!]!
    recipients: [BatchRecipientInput!]!
  }
  input EmailTemplateInput {
    subject: String!
    html: String!
  }
  input SmsTemplateInput {
    body: String!
  }
  input PushTemplateInput {
    title: String!
    body: String!
  }
  input TemplateChannelsInput {
    email: EmailTemplateInput
    sms: SmsTemplateInput
    push: PushTemplateInput
  }
  input CreateNotificationTemplateInput {
    name: String!
    channels: TemplateChannelsInput!
  }
  input WebPushKeysInput {
    p256dh: String!
    auth: String!
  }
  input WebPushSubscriptionInput {
    endpoint: String!
    keys: WebPushKeysInput!
  }
  input NotificationRecipientInput {
    email: String
    phone: String
    pushTokens: [String!]
    webPushSubscriptions: [WebPushSubscriptionInput!]
    locale: String
  }
  extend type Query {
    notification(id: ID!): Notification!
    notifications(batchId: ID, status: NotificationStatus, to: String, page: Int, limit: Int): NotificationPage!
    notificationBatch(id: ID!): NotificationBatch!
    notificationTemplate(name: String!, version: Int): NotificationTemplate!
    notificationTemplates(page: Int, limit: Int): NotificationTemplatePage!
    notificationTemplateVersions(name: String!): [NotificationTemplate!]!
    notificationRecipient(id: String!): NotificationRecipient!
    sandboxMessages(notificationId: ID, channel: String, to: String, page: Int, limit: Int): SandboxMessagePage!
  }
  extend type Mutation {
    sendNotification(input: SendNotificationInput!): Notification!
    sendNotificationBatch(input: SendNotificationBatchInput!): NotificationBatch!
    createNotificationTemplate(input: CreateNotificationTemplateInput!): NotificationTemplate!
    upsertNotificationRecipient(id: String!, input: NotificationRecipientInput!): NotificationRecipient!
    deleteNotificationRecipient(id: String!): DeletedNotificationRecipient!
  }
  # risk
  scalar JSONObject
  scalar RiskJSON
  enum RiskAction {
    allow
    review
    block
  }
  type RiskRulesLayer {
    fired: Int!
    checked: Int!
    score: Float!
  }
  type RiskGraphLayer {
    patternsFound: Int!
    nodesTraversed: Int!
    score: Float!
  }
  type RiskSanctionsLayer {
    hits: Int!
    listsChecked: Int!
    score: Float!
  }
  type RiskLayers {
    rules: RiskRulesLayer!
    graph: RiskGraphLayer!
    sanctions: RiskSanctionsLayer!
  }
  type RiskFiredRule {
    id: String!
    name: String!
    description: String
    version: Int!
    action: String!
    severity: String!
  }
  type RiskRuleError {
    id: String!
    version: Int!
    message: String!
  }
  type RiskGraphPattern {
    type: String!
    weight: Float!
    accounts: [String!]!
    length: Int
    count: Int
    ratio: Float
    device: String
  }
  type RiskSanctionsHit {
    party: String!
    account: String!
    name: String!
    source: String!
    kind: String!
    externalId: String!
    primaryName: String!
    matchedName: String!
    score: Float!
    listVersion: String!
  }
  type RiskTransaction {
    amount: Float!
    currency: String!
    sender: String!
    receiver: String!
    channel: String
    metadata: JSONObject!
  }
  type RiskEvaluation {
    id: ID!
    transactionId: String!
    score: Float!
    action: RiskAction!
    mock: Boolean!
    latencyMs: Float!
    layers: RiskLayers!
    reasons: [String!]!
    rulesFired: [RiskFiredRule!]!
    ruleErrors: [RiskRuleError!]!
    graphPatterns: [RiskGraphPattern!]!
    sanctionsHits: [RiskSanctionsHit!]!
    transaction: RiskTransaction!
    facts: JSONObject!
    rulesRevision: String!
    createdAt: DateTimeISO!
  }
  type RiskRule {
    id: String!
    name: String!
    description: String
    condition: String!
    action: String!
    severity: String!
    enabled: Boolean!
    version: Int!
    isDefault: Boolean!
    createdAt: DateTimeISO!
    updatedAt: DateTimeISO!
  }
  type RiskRuleChange {
    id: String!
    updated: Boolean!
    created: Boolean!
    effectiveAt: DateTimeISO!
    version: Int!
    revision: String!
    rule: RiskRule!
  }
  type RiskGraphQueryResult {
    results: [JSONObject!]!
    columns: [String!]!
    nodesScanned: Int!
    latencyMs: Float!
    truncated: Boolean!
  }
  input EvaluateTransactionInput {
    transactionId: String!
    amount: Float!
    currency: String!
    sender: String!
    receiver: String!
    channel: String
    metadata: RiskJSON
  }
  input RiskRuleInput {
    condition: String
    action: String
    severity: String
    name: String
    description: String
    enabled: Boolean
  }
  extend type Query {
    riskEvaluation(id: ID!): RiskEvaluation!
    riskRules(includeDisabled: Boolean): [RiskRule!]!
    riskGraphQuery(query: String!, params: RiskJSON): RiskGraphQueryResult!
  }
  extend type Mutation {
    evaluateTransaction(input: EvaluateTransactionInput!): RiskEvaluation!
    putRiskRule(id: String!, input: RiskRuleInput!): RiskRuleChange!
  }
`);

describe('route table', () => {
  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))('%s has a valid operation', (_name, route) => {
    expect(validate(SCHEMA, parse(route.operation))).toEqual([]);
  });

  it('has no two routes on the same method and path', () => {
    const keys = routes.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('OpenAPI document', () => {
  const doc = openApiDocument(routes);

  it('is OpenAPI 3.0.3 at the published version, served with and without /v1', () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe('1.1.0');
    expect(doc.servers).toEqual([{ url: '/v1' }, { url: '/' }]);
  });

  it('lists every route with its path parameters, query parameters and body', () => {
    for (const route of routes) {
      const path = route.path.replace(/:(\w+)/g, '{$1}');
      const operation = doc.paths[path]?.[route.method.toLowerCase()] as Record<string, any>;
      expect(operation).toBeDefined();
      expect(operation.summary).toBe(route.summary);
      const params = operation.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
      for (const [, name] of route.path.matchAll(/:(\w+)/g)) expect(params).toContain(`path:${name}`);
      for (const field of route.query ?? []) expect(params).toContain(`query:${field.name}`);
      const schema = operation.requestBody?.content['application/json'].schema;
      expect(Object.keys(schema?.properties ?? {})).toEqual((route.body ?? []).map((field) => field.name));
    }
    const count = Object.values(doc.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    expect(count).toBe(routes.length);
  });

  it('documents types, enums and required fields', () => {
    const create = doc.paths['/verifications/identity'].post as Record<string, any>;
    expect(create.requestBody.content['application/json'].schema).toMatchObject({
      type: 'object',
      required: ['userId'],
      properties: { userId: { type: 'string' }, tier: { type: 'string', enum: ['BASIC', 'STANDARD', 'ENHANCED'] } },
    });
    expect(Object.keys(create.responses)).toEqual(['2XX', 'default']);
    const list = doc.paths['/verifications/identity/user/{userId}'].get as Record<string, any>;
    expect(list.parameters).toContainEqual(expect.objectContaining({ name: 'page', in: 'query', schema: { type: 'integer' } }));
    const client = doc.paths['/admin/api-clients'].post as Record<string, any>;
    expect(client.requestBody.content['application/json'].schema.properties.permissions).toEqual(
      expect.objectContaining({ type: 'array', items: { type: 'string' } }),
    );
    expect(Object.keys(client.responses)).toEqual(['201', 'default']);
  });

  it('is served at /openapi.json', async () => {
    const adapter = await startRestAdapter({ gatewayUrl: 'http://127.0.0.1:1/graphql', port: 0, logger: createLogger('openapi-test') });
    try {
      const res = await fetch(`${adapter.url}/openapi.json`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(JSON.parse(JSON.stringify(doc)));
    } finally {
      await adapter.stop();
    }
  });
});
