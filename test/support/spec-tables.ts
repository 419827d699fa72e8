/**
 * The endpoint tables of both published specifications, transcribed row by row (verification:
 * every section of "Endpoints"; risk and notify: Part A and Part B), with each Form of a row as a
 * row of its own. `test/spec-conformance.e2e.test.ts` checks the route table and the running stack
 * against them: a path, a field name, a header or a status that drifts from the spec fails there.
 * Written from the spec, not from the route table: never generate these from the code under test.
 */

export type SpecService = 'verification' | 'risk' | 'notify' | 'admin';

/** The credentials header each spec names: verification `X-API-Key`, risk and notify `Authorization: Bearer`, administration `X-Admin-Secret`. */
export const SPEC_HEADER: Record<SpecService, string> = {
  verification: 'x-api-key',
  risk: 'authorization',
  notify: 'authorization',
  admin: 'x-admin-secret',
};

export interface SpecEndpoint {
  service: SpecService;
  /** The spec's section (its table heading). */
  section: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** As the spec writes it, without `/v1`: `{id}`-style placeholders (Part A/B's `:id` written so too). */
  path: string;
  form?: 'A' | 'B';
  /** The status the spec states; absent where it says "2xx" or shows none (docs/rest.md records our choice). */
  status?: number;
  /** Our status where the spec states none (documented in docs/rest.md). */
  ourStatus?: number;
  /** Payload fields the spec marks required / names without requiring. */
  required?: readonly string[];
  optional?: readonly string[];
  /** Multipart file fields. */
  files?: readonly string[];
  /** Query parameters the spec names. */
  query?: readonly string[];
  /**
   * Members of the answer the spec names (dotted for nested members, `[]` for array items).
   * Only members present on every answer; members present "when completed" are in `schemaOnly`.
   */
  response?: readonly string[];
  /** Members the spec names that appear only in some states: checked in the OpenAPI document, not on a live answer. */
  schemaOnly?: readonly string[];
  /** Values the spec gives the answer (`201 … with status PENDING`). */
  answers?: Record<string, unknown>;
  /** A list: the page body the spec shows (`page`: data, total, page, limit; `pagination`: data + pagination; `array`; `key`: an object holding the array). */
  list?: 'page' | 'pagination' | 'array' | { key: string };
}

const PAGE = ['page', 'limit'] as const;

const IDENTITY = ['id', 'userId', 'tier', 'overallStatus', 'createdAt'] as const;
const DOCUMENT = [
  'id',
  'userId',
  'documentType',
  'documentCountry',
  'frontImageUrl',
  'status',
  'extractedData',
  'confidence',
  'verifiedAt',
  'createdAt',
  'updatedAt',
] as const;
const DOCUMENT_DATA = [
  'extractedData.fullName',
  'extractedData.dateOfBirth',
  'extractedData.documentNumber',
  'extractedData.expiryDate',
  'extractedData.nationality',
] as const;
const PHONE = ['id', 'userId', 'phoneNumber', 'channel', 'status', 'expiresAt', 'createdAt', 'attemptsRemaining', 'verifiedAt'] as const;
const EMAIL = ['id', 'userId', 'email', 'status', 'expiresAt', 'createdAt', 'verifiedAt'] as const;
const ADDRESS = [
  'id',
  'userId',
  'documentType',
  'status',
  'createdAt',
  'extractedData',
  'addressMatch',
  'documentAge',
  'completedAt',
] as const;
const ADDRESS_DATA = ['extractedData.fullName', 'extractedData.address', 'extractedData.issueDate', 'extractedData.issuer'] as const;
const BUSINESS = [
  'id',
  'businessName',
  'registrationNumber',
  'country',
  'businessType',
  'status',
  'steps.registration',
  'steps.directors',
  'steps.ubo',
  'steps.amlScreening',
  'registryData',
  'createdAt',
  'completedAt',
] as const;
const REGISTRY_DATA = [
  'registryData.legalName',
  'registryData.dateIncorporated',
  'registryData.status',
  'registryData.registeredAddress',
  'registryData.capital',
] as const;
/** The mobile money record as the spec shows it, in its order. */
export const MOBILE_MONEY = [
  'id',
  'userId',
  'phoneNumber',
  'provider',
  'country',
  'status',
  'accountHolder',
  'nameMatch',
  'nameMatchScore',
  'accountStatus',
  'verifiedAt',
  'createdAt',
] as const;
/** The AML result as the published reference API shows it (COMPATIBILITY.md; the spec shows none). */
const AML = ['id', 'userId', 'status', 'riskLevel', 'matchCount', 'matches', 'listsChecked', 'checkedAt'] as const;
const SUBSCRIPTION = ['id', 'userId', 'status', 'lists', 'nextScanAt', 'createdAt'] as const;
const ALERT = [
  'data[].id',
  'data[].subscriptionId',
  'data[].userId',
  'data[].status',
  'data[].match.listName',
  'data[].match.matchScore',
  'data[].match.matchedName',
  'data[].match.source',
  'data[].match.addedDate',
  'data[].detectedAt',
] as const;
const DEVICE = [
  'id',
  'userId',
  'deviceId',
  'firstSeen',
  'riskScore',
  'riskLevel',
  'signals.emulator',
  'signals.rooted',
  'signals.vpn',
  'signals.knownFraudDevice',
  'signals.geoMismatch',
  'signals.multipleAccounts',
  'signals.deviceAge',
  'location.country',
  'location.city',
  'location.isp',
  'createdAt',
] as const;
const IP = [
  'ip',
  'riskScore',
  'riskLevel',
  'geolocation.country',
  'geolocation.countryName',
  'geolocation.region',
  'geolocation.city',
  'geolocation.latitude',
  'geolocation.longitude',
  'network.isp',
  'network.organization',
  'network.asn',
  'network.connectionType',
  'threats.isVpn',
  'threats.isProxy',
  'threats.isTor',
  'threats.isDatacenter',
  'threats.isKnownAbuser',
  'threats.threatTypes',
  'checkedAt',
] as const;
const DEDUP = ['id', 'userId', 'status', 'matchFound', 'enrolled', 'checkedAt'] as const;
const EVALUATION_LAYERS = [
  'layers.rules.fired',
  'layers.rules.checked',
  'layers.graph.patterns_found',
  'layers.graph.nodes_traversed',
  'layers.sanctions.hits',
  'layers.sanctions.lists_checked',
] as const;
const TEMPLATE = ['template_id', 'name', 'version', 'channels', 'created_at'] as const;

export const SPEC_ENDPOINTS: readonly SpecEndpoint[] = [
  // ── verification: Identity verification
  {
    service: 'verification',
    section: 'Identity verification',
    method: 'POST',
    path: '/verifications/identity',
    status: 201,
    required: ['userId'],
    optional: ['tier'],
    response: IDENTITY,
    answers: { overallStatus: 'PENDING' },
  },
  {
    service: 'verification',
    section: 'Identity verification',
    method: 'GET',
    path: '/verifications/identity/{id}',
    status: 200,
    response: IDENTITY,
    schemaOnly: ['faceMatchScore', 'verifiedAt'],
  },
  {
    service: 'verification',
    section: 'Identity verification',
    method: 'GET',
    path: '/verifications/identity/user/{userId}',
    status: 200,
    query: PAGE,
    list: 'page',
  },
  {
    service: 'verification',
    section: 'Identity verification',
    method: 'POST',
    path: '/verifications/identity/{id}/review',
    status: 200,
    required: ['decision', 'reviewedBy', 'reviewNotes'],
  },
  { service: 'verification', section: 'Identity verification', method: 'POST', path: '/verifications/identity/{id}/restart', status: 200 },
  // ── AI identity check and fraud history
  {
    service: 'verification',
    section: 'AI identity check and fraud history',
    method: 'POST',
    path: '/cognitive-kyc/verify',
    status: 200,
    required: ['userId', 'selfieBase64', 'documentBase64'],
    optional: ['selfieMimeType', 'documentMimeType'],
    response: [
      'decision',
      'confidence',
      'faceMatchReasoning',
      'documentFields.fullName',
      'documentFields.dateOfBirth',
      'documentFields.documentNumber',
      'documentFields.expiryDate',
      'documentFields.nationality',
      'documentFields.documentType',
      'fraudIndicators.tampering',
      'fraudIndicators.photoManipulation',
      'fraudIndicators.expiredDocument',
      'fraudIndicators.blurryImage',
      'fraudHistory.priorVerifications',
      'fraudHistory.flaggedAttempts',
      'fraudHistory.riskLevel',
      'timestamp',
    ],
  },
  {
    service: 'verification',
    section: 'AI identity check and fraud history',
    method: 'POST',
    path: '/cognitive-kyc/fraud-check',
    status: 200,
    // "at least one must be given": none is required alone
    optional: ['userId', 'documentNumber', 'fullName'],
    response: ['matches', 'riskLevel', 'history', 'recommendation'],
  },
  // ── Document verification
  {
    service: 'verification',
    section: 'Document verification',
    method: 'POST',
    path: '/verifications/document',
    status: 201,
    required: ['userId', 'documentType', 'documentCountry'],
    files: ['frontImage', 'backImage'],
    response: DOCUMENT,
    schemaOnly: ['backImageUrl', ...DOCUMENT_DATA],
    answers: { status: 'PENDING' },
  },
  {
    service: 'verification',
    section: 'Document verification',
    method: 'GET',
    path: '/verifications/document/{id}',
    status: 200,
    response: DOCUMENT,
    schemaOnly: ['backImageUrl', ...DOCUMENT_DATA],
  },
  {
    service: 'verification',
    section: 'Document verification',
    method: 'GET',
    path: '/verifications/document/user/{userId}',
    status: 200,
    query: PAGE,
    list: 'page',
  },
  // ── Liveness
  {
    service: 'verification',
    section: 'Liveness',
    method: 'POST',
    path: '/verifications/liveness/session',
    status: 201,
    required: ['userId'],
    response: ['sessionToken', 'expiresAt', 'challenges[].id', 'challenges[].type', 'challenges[].instruction', 'instructions'],
  },
  {
    service: 'verification',
    section: 'Liveness',
    method: 'POST',
    path: '/verifications/liveness/challenge',
    status: 200,
    required: ['sessionToken', 'challengeId'],
    files: ['photo'],
    response: ['sessionToken', 'status', 'challengesCompleted', 'challengesTotal', 'isComplete'],
    schemaOnly: [
      'nextStep',
      'result.isAlive',
      'result.confidence',
      'result.antiSpoofScore',
      'result.faceMatchScore',
      'result.failureReason',
    ],
  },
  {
    service: 'verification',
    section: 'Liveness',
    method: 'POST',
    path: '/verifications/liveness/reference-selfie',
    status: 200,
    required: ['sessionToken'],
    files: ['selfie'],
  },
  { service: 'verification', section: 'Liveness', method: 'GET', path: '/verifications/liveness/{id}', status: 200 },
  {
    service: 'verification',
    section: 'Liveness',
    method: 'GET',
    path: '/verifications/liveness/user/{userId}',
    status: 200,
    query: PAGE,
    list: 'page',
  },
  // ── Phone verification
  {
    service: 'verification',
    section: 'Phone verification',
    method: 'POST',
    path: '/verifications/phone',
    status: 201,
    required: ['phoneNumber', 'userId'],
    // channel: Form A SMS|VOICE, Form B sms|whatsapp; Form A also locale
    optional: ['channel', 'locale'],
    response: PHONE,
    answers: { status: 'PENDING' },
  },
  {
    service: 'verification',
    section: 'Phone verification',
    method: 'GET',
    path: '/verifications/phone/{id}',
    status: 200,
    response: PHONE,
  },
  {
    service: 'verification',
    section: 'Phone verification',
    method: 'POST',
    path: '/verifications/phone/{id}/verify',
    form: 'A',
    status: 200,
    required: ['code'],
    answers: { status: 'VERIFIED' },
  },
  {
    service: 'verification',
    section: 'Phone verification',
    method: 'POST',
    path: '/verifications/phone/verify',
    form: 'B',
    status: 200,
    required: ['verificationId', 'code'],
    response: ['id', 'status', 'phoneNumber', 'verifiedAt'],
    answers: { status: 'VERIFIED' },
  },
  // ── Email verification
  {
    service: 'verification',
    section: 'Email verification',
    method: 'POST',
    path: '/verifications/email',
    status: 201,
    required: ['email', 'userId'],
    optional: ['method', 'redirectUrl'],
    response: EMAIL,
    answers: { status: 'PENDING' },
  },
  {
    service: 'verification',
    section: 'Email verification',
    method: 'GET',
    path: '/verifications/email/{id}',
    status: 200,
    response: EMAIL,
  },
  {
    service: 'verification',
    section: 'Email verification',
    method: 'POST',
    path: '/verifications/email/{id}/verify',
    form: 'A',
    status: 200,
    required: ['code'],
    answers: { status: 'VERIFIED' },
  },
  {
    service: 'verification',
    section: 'Email verification',
    method: 'POST',
    path: '/verifications/email/verify',
    form: 'B',
    status: 200,
    required: ['verificationId', 'code'],
    response: ['id', 'status', 'email', 'verifiedAt'],
    answers: { status: 'VERIFIED' },
  },
  // ── Address verification
  {
    service: 'verification',
    section: 'Address verification',
    method: 'POST',
    path: '/verifications/address',
    form: 'A',
    status: 201,
    required: ['userId', 'documentType', 'country'],
    optional: ['expectedAddress'],
    files: ['document'],
    response: ADDRESS,
    schemaOnly: ADDRESS_DATA,
    answers: { status: 'PROCESSING' },
  },
  {
    service: 'verification',
    section: 'Address verification',
    method: 'POST',
    path: '/verifications/address',
    form: 'B',
    status: 201,
    required: ['userId', 'documentType', 'documentUrl'],
    optional: ['declaredAddress'],
    response: ADDRESS,
    answers: { status: 'PROCESSING' },
  },
  {
    service: 'verification',
    section: 'Address verification',
    method: 'GET',
    path: '/verifications/address/{id}',
    status: 200,
    response: ADDRESS,
    schemaOnly: ADDRESS_DATA,
  },
  {
    service: 'verification',
    section: 'Address verification',
    method: 'GET',
    path: '/verifications/address/user/{userId}',
    status: 200,
    query: PAGE,
    list: 'page',
  },
  {
    service: 'verification',
    section: 'Address verification',
    method: 'POST',
    path: '/verifications/address/{id}/review',
    status: 200,
    required: ['decision', 'reviewedBy', 'reviewNotes'],
  },
  // ── Business verification
  {
    service: 'verification',
    section: 'Business verification',
    method: 'POST',
    path: '/verifications/business',
    status: 201,
    required: ['businessName', 'registrationNumber', 'country', 'userId'],
    optional: ['businessType', 'taxId'],
    response: BUSINESS,
    schemaOnly: REGISTRY_DATA,
    answers: { status: 'PENDING', steps: { registration: 'PROCESSING', directors: 'PENDING', ubo: 'PENDING', amlScreening: 'PENDING' } },
  },
  {
    service: 'verification',
    section: 'Business verification',
    method: 'GET',
    path: '/verifications/business/{id}',
    status: 200,
    response: BUSINESS,
    schemaOnly: REGISTRY_DATA,
  },
  {
    service: 'verification',
    section: 'Business verification',
    method: 'POST',
    path: '/verifications/business/{id}/directors',
    form: 'A',
    ourStatus: 200,
    required: ['directors'],
  },
  {
    service: 'verification',
    section: 'Business verification',
    method: 'POST',
    path: '/verifications/business/{id}/directors',
    form: 'B',
    ourStatus: 200,
    required: ['fullName', 'position'],
    optional: ['dateOfBirth', 'nationality', 'idNumber'],
  },
  {
    service: 'verification',
    section: 'Business verification',
    method: 'POST',
    path: '/verifications/business/{id}/ubos',
    form: 'A',
    ourStatus: 200,
    required: ['ubos'],
  },
  {
    service: 'verification',
    section: 'Business verification',
    method: 'POST',
    path: '/verifications/business/{id}/ubos',
    form: 'B',
    ourStatus: 200,
    required: ['fullName', 'ownershipPercentage'],
    optional: ['dateOfBirth', 'nationality'],
  },
  {
    service: 'verification',
    section: 'Business verification',
    method: 'GET',
    path: '/verifications/business/user/{userId}',
    status: 200,
    query: PAGE,
    list: 'page',
  },
  // ── Mobile money
  {
    service: 'verification',
    section: 'Mobile money',
    method: 'POST',
    path: '/verifications/mobile-money',
    status: 200,
    required: ['userId', 'phoneNumber', 'provider', 'country'],
    optional: ['expectedName'],
    response: MOBILE_MONEY,
  },
  {
    service: 'verification',
    section: 'Mobile money',
    method: 'GET',
    path: '/verifications/mobile-money/{id}',
    status: 200,
    response: MOBILE_MONEY,
  },
  // ── AML screening
  {
    service: 'verification',
    section: 'AML screening',
    method: 'POST',
    path: '/screening/aml',
    status: 200,
    required: ['userId', 'fullName'],
    optional: ['dateOfBirth', 'nationality', 'documentNumber', 'matchThreshold', 'lists'],
    response: AML,
  },
  {
    service: 'verification',
    section: 'AML screening',
    method: 'POST',
    path: '/screening/aml/batch',
    status: 202,
    required: ['subjects'],
    optional: ['callbackUrl'],
  },
  { service: 'verification', section: 'AML screening', method: 'GET', path: '/screening/aml/{id}', status: 200, response: AML },
  {
    service: 'verification',
    section: 'AML screening',
    method: 'GET',
    path: '/screening/aml/user/{userId}',
    status: 200,
    query: PAGE,
    list: 'page',
  },
  // ── Watchlist monitoring
  ...(['A', 'B'] as const).flatMap((form): SpecEndpoint[] => {
    const base = form === 'A' ? '/monitoring/watchlist' : '/screening/watchlist';
    return [
      {
        service: 'verification',
        section: 'Watchlist monitoring',
        method: 'POST',
        path: `${base}/subscribe`,
        form,
        status: 201,
        required: ['userId', 'fullName'],
        optional: ['dateOfBirth', 'nationality', form === 'A' ? 'lists' : 'country'],
        response: SUBSCRIPTION,
        answers: { status: 'ACTIVE' },
      },
      {
        service: 'verification',
        section: 'Watchlist monitoring',
        method: 'DELETE',
        path: form === 'A' ? `${base}/subscribe/{id}` : `${base}/unsubscribe/{id}`,
        form,
        status: 200,
        response: ['id', 'status', 'cancelledAt'],
        answers: { status: 'CANCELLED' },
      },
      {
        service: 'verification',
        section: 'Watchlist monitoring',
        method: 'GET',
        path: `${base}/alerts`,
        form,
        status: 200,
        query: ['userId', 'status', ...PAGE],
        list: 'pagination',
        response: ALERT,
      },
      {
        service: 'verification',
        section: 'Watchlist monitoring',
        method: 'GET',
        path: `${base}/subscriptions`,
        form,
        status: 200,
        query: ['status', ...PAGE],
        // "200 list" (its body not shown): the alerts' page of the same section
        list: 'pagination',
      },
    ];
  }),
  // ── Device and IP intelligence
  {
    service: 'verification',
    section: 'Device and IP intelligence',
    method: 'POST',
    path: '/intelligence/device/fingerprint',
    status: 200,
    required: ['userId', 'sessionId', 'fingerprint'],
    optional: ['ip'],
    response: DEVICE,
  },
  {
    service: 'verification',
    section: 'Device and IP intelligence',
    method: 'GET',
    path: '/intelligence/device/{id}',
    status: 200,
    response: DEVICE,
  },
  {
    service: 'verification',
    section: 'Device and IP intelligence',
    method: 'POST',
    path: '/intelligence/ip',
    form: 'A',
    status: 200,
    required: ['ip'],
    optional: ['userId'],
    response: IP,
  },
  {
    service: 'verification',
    section: 'Device and IP intelligence',
    method: 'POST',
    path: '/intelligence/ip/check',
    form: 'B',
    status: 200,
    required: ['ipAddress', 'userId'],
    response: IP,
  },
  // ── Biometric deduplication
  {
    service: 'verification',
    section: 'Biometric deduplication',
    method: 'POST',
    path: '/biometrics/dedup/check',
    status: 200,
    required: ['userId', 'selfieBase64'],
    optional: ['selfieMimeType', 'threshold', 'enroll'],
    response: DEDUP,
    schemaOnly: ['matches[].matchedUserId', 'matches[].similarity', 'matches[].enrolledAt'],
  },
  {
    service: 'verification',
    section: 'Biometric deduplication',
    method: 'GET',
    path: '/biometrics/dedup/{id}',
    status: 200,
    response: DEDUP,
  },
  // ── Webhooks
  {
    service: 'verification',
    section: 'Webhooks',
    method: 'POST',
    path: '/webhooks/configure',
    status: 201,
    required: ['clientId', 'callbackUrl', 'events'],
    response: ['id', 'callbackUrl', 'events', 'secret', 'message'],
  },
  {
    service: 'verification',
    section: 'Webhooks',
    method: 'GET',
    path: '/webhooks/client/{clientId}',
    status: 200,
    list: 'array',
    response: ['[].id', '[].callbackUrl', '[].events', '[].active', '[].createdAt'],
  },
  { service: 'verification', section: 'Webhooks', method: 'DELETE', path: '/webhooks/{id}', status: 200, response: ['message'] },
  // ── Client administration (the created client as the published reference API shows it)
  {
    service: 'admin',
    section: 'Client administration',
    method: 'POST',
    path: '/admin/api-clients',
    status: 201,
    required: ['name'],
    optional: ['permissions', 'rateLimit'],
    response: ['id', 'name', 'apiKey', 'permissions', 'rateLimit', 'message'],
  },

  // ── Part A, risk evaluation
  {
    service: 'risk',
    section: 'Part A',
    method: 'POST',
    path: '/evaluate',
    ourStatus: 200,
    required: ['transaction_id', 'amount', 'currency', 'sender', 'receiver'],
    optional: ['channel', 'metadata'],
    response: ['evaluation_id', 'score', 'action', 'latency_ms', ...EVALUATION_LAYERS, 'reasons', 'created_at'],
  },
  {
    service: 'risk',
    section: 'Part A',
    method: 'GET',
    path: '/evaluations/{id}',
    ourStatus: 200,
    response: [
      'evaluation_id',
      'transaction_id',
      'score',
      'action',
      ...EVALUATION_LAYERS,
      'rules_fired',
      'graph_patterns',
      'sanctions_hits',
      'created_at',
    ],
  },
  {
    service: 'risk',
    section: 'Part A',
    method: 'GET',
    path: '/rules',
    ourStatus: 200,
    list: { key: 'rules' },
    response: ['rules[].id', 'rules[].name', 'rules[].condition', 'rules[].action', 'rules[].severity', 'rules[].enabled'],
  },
  {
    service: 'risk',
    section: 'Part A',
    method: 'PUT',
    path: '/rules/{id}',
    // an update; a rule the organization does not have yet is created (201)
    ourStatus: 200,
    optional: ['condition', 'action', 'severity'],
    response: ['id', 'updated', 'effective_at'],
  },
  {
    service: 'risk',
    section: 'Part A',
    method: 'POST',
    path: '/graph/query',
    ourStatus: 200,
    required: ['query'],
    optional: ['params'],
    response: ['results', 'nodes_scanned', 'latency_ms'],
  },

  // ── Part B, notification dispatch
  {
    service: 'notify',
    section: 'Part B',
    method: 'POST',
    path: '/send',
    ourStatus: 202,
    required: ['to', 'template', 'channels'],
    optional: ['data'],
    response: ['notification_id', 'status', 'channels'],
  },
  {
    service: 'notify',
    section: 'Part B',
    method: 'POST',
    path: '/send/batch',
    ourStatus: 202,
    required: ['template', 'channels', 'recipients'],
    response: ['batch_id', 'total', 'queued', 'status'],
  },
  {
    service: 'notify',
    section: 'Part B',
    method: 'GET',
    path: '/notifications/{id}',
    ourStatus: 200,
    response: ['notification_id', 'template', 'to', 'status', 'channels', 'created_at'],
  },
  {
    service: 'notify',
    section: 'Part B',
    method: 'POST',
    path: '/templates',
    ourStatus: 201,
    required: ['name', 'channels'],
    response: TEMPLATE,
  },
];
