/**
 * Every GraphQL operation the console sends: the API's own queries, mutations and subscriptions
 * (decisions go through the same mutations as any integrator's, so they land in the same audit
 * trail). `operations.test.ts` validates each against schema/api.graphql.
 */

const USER_ERRORS = 'userErrors { field code message }';

const HIT = 'listName listVersion kind matchedName primaryName programs score source entityType externalId addedDate';

const MATCH = `id resolution resolutionReason resolvedAt resolvedBy
  hit { ${HIT} }
  explanation { nameScore tokens { query matched how score weight } qualifiers { kind effect detail } }`;

const SCREENING = `id userId fullName dateOfBirth nationality documentNumber status riskLevel matchCount matchThreshold
  listsChecked checkedAt resolvedAt createdAt updatedAt matches { ${MATCH} }`;

const DOCUMENT = `id userId documentType documentCountry status confidence reasons frontImageUrl backImageUrl imagesDeletedAt
  extractedData { fullName dateOfBirth documentNumber expiryDate nationality }
  checks { mrzFound mrzValid mrzFailedChecks expired faceFound sharpness ocrConfidence }
  checkedAt verifiedAt reviewedAt reviewedBy reviewNotes createdAt updatedAt`;

const LIVENESS = `id status referenceSelfieUrl challengesCompleted challengesTotal completedAt createdAt
  result { isAlive confidence antiSpoofScore faceMatchScore failureReason }
  challenges { id type outcome score }`;

const IDENTITY = `id userId tier overallStatus reasons faceMatchScore
  steps { document liveness faceMatch aml }
  document { ${DOCUMENT} }
  livenessSession { ${LIVENESS} }
  amlScreening { ${SCREENING} }
  verifiedAt reviewedAt reviewedBy reviewNotes invalidatedAt createdAt updatedAt`;

const ADDRESS = `id userId documentType documentSource country status reasons expectedAddress documentImageUrl documentUrl
  extractedData { fullName address issueDate issuer }
  addressMatch addressMatchScore addressMatchExplanation documentAge textConfidence
  checkedAt completedAt reviewedAt reviewedBy reviewNotes createdAt updatedAt`;

const PERSON_SCREENING = `screeningStatus matchCount amlScreening { ${SCREENING} }`;

const BUSINESS = `id userId businessName registrationNumber country businessType taxId status reasons
  steps { registration directors ubo amlScreening }
  registryData { legalName registrationNumber status companyType dateIncorporated registeredAddress capital }
  registryLookup { provider attempts lastAttemptAt lastError nextAttemptAt }
  directors { id fullName role nationality dateOfBirth ${PERSON_SCREENING} }
  ubos { id fullName ownershipPercentage controlType nationality dateOfBirth ${PERSON_SCREENING} }
  completedAt reviewedAt reviewedBy reviewNotes createdAt updatedAt`;

const ALERT = `id userId status detectedAt clearedAt reviewedAt reviewedBy reviewNote
  match { ${HIT} }
  subscription { id fullName dateOfBirth nationality country status lists matchThreshold lastScanAt }`;

/** What a queue row shows, per queue (the full record is read when the case opens). */
const ROW = {
  identity: 'id userId tier overallStatus reasons createdAt updatedAt',
  document: 'id userId documentType documentCountry status reasons createdAt updatedAt',
  address: 'id userId documentType country status reasons createdAt updatedAt',
  business: 'id userId businessName country status reasons createdAt updatedAt',
  aml: 'id userId fullName status riskLevel matchCount createdAt updatedAt matches { id resolution }',
  alert: 'id userId status detectedAt match { matchedName listName score }',
};

export type QueueKind = keyof typeof ROW;

const connection = (rows: string) => `totalCount pageInfo { hasNextPage endCursor } nodes { ${rows} }`;
const envelope = (rows: string) => `type occurredAt node { ${rows} }`;

/** The review queues: their first page (newest first) and their organization-wide feed. */
export const QUEUE_OPERATIONS: Record<QueueKind, { list: string; feed: string }> = {
  identity: {
    list: `query IdentityQueue { queue: identityVerifications(first: 100, filter: { status: MANUAL_REVIEW }) { ${connection(ROW.identity)} } }`,
    feed: `subscription IdentityFeed { event: identityVerificationUpdatedForOrganization { ${envelope(ROW.identity)} } }`,
  },
  document: {
    list: `query DocumentQueue { queue: documentVerifications(first: 100, filter: { status: MANUAL_REVIEW }) { ${connection(ROW.document)} } }`,
    feed: `subscription DocumentFeed { event: documentVerificationUpdatedForOrganization { ${envelope(ROW.document)} } }`,
  },
  address: {
    list: `query AddressQueue { queue: addressVerifications(first: 100, filter: { status: MANUAL_REVIEW }) { ${connection(ROW.address)} } }`,
    feed: `subscription AddressFeed { event: addressVerificationUpdatedForOrganization { ${envelope(ROW.address)} } }`,
  },
  business: {
    list: `query BusinessQueue { queue: businessVerifications(first: 100, filter: { status: MANUAL_REVIEW }) { ${connection(ROW.business)} } }`,
    feed: `subscription BusinessFeed { event: businessVerificationUpdatedForOrganization { ${envelope(ROW.business)} } }`,
  },
  aml: {
    list: `query AmlQueue { queue: amlScreenings(first: 100, filter: { hasUnresolvedMatches: true }) { ${connection(ROW.aml)} } }`,
    feed: `subscription AmlFeed { event: amlScreeningUpdatedForOrganization { ${envelope(ROW.aml)} } }`,
  },
  alert: {
    list: `query AlertQueue { queue: watchlistAlerts(first: 100, filter: { status: OPEN }) { ${connection(ROW.alert)} } }`,
    feed: `subscription AlertFeed { event: watchlistAlertUpdatedForOrganization { ${envelope(ROW.alert)} } }`,
  },
};

/** One record of each kind, whole, for its case view. */
export const CASE_QUERIES: Record<QueueKind, string> = {
  identity: `query IdentityCase($id: ID!) { record: identityVerification(id: $id) { ${IDENTITY} } }`,
  document: `query DocumentCase($id: ID!) { record: documentVerification(id: $id) { ${DOCUMENT} } }`,
  address: `query AddressCase($id: ID!) { record: addressVerification(id: $id) { ${ADDRESS} } }`,
  business: `query BusinessCase($id: ID!) { record: businessVerification(id: $id) { ${BUSINESS} } }`,
  aml: `query AmlCase($id: ID!) { record: amlScreening(id: $id) { ${SCREENING} } }`,
  alert: `query AlertCase($id: ID!) { record: watchlistAlert(id: $id) { ${ALERT} } }`,
};

/** The open case's own events, for its timeline (and to notice a decision made elsewhere). */
export const CASE_FEEDS: Record<QueueKind, string> = {
  identity: 'subscription IdentityEvents($id: ID!) { event: identityVerificationUpdated(id: $id) { type occurredAt } }',
  document: 'subscription DocumentEvents($id: ID!) { event: documentVerificationUpdated(id: $id) { type occurredAt } }',
  address: 'subscription AddressEvents($id: ID!) { event: addressVerificationUpdated(id: $id) { type occurredAt } }',
  business: 'subscription BusinessEvents($id: ID!) { event: businessVerificationUpdated(id: $id) { type occurredAt } }',
  aml: 'subscription AmlEvents($id: ID!) { event: amlScreeningUpdated(id: $id) { type occurredAt } }',
  alert: 'subscription AlertEvents($id: ID!) { event: watchlistAlertUpdated(id: $id) { type occurredAt } }',
};

/** The person's device and IP signals: read apart, so a key without `intelligence` still sees the case. */
export const USER_SIGNALS = `query UserSignals($userId: ID!) {
  user(id: $userId) {
    deviceAssessments(first: 3) {
      nodes { id deviceId riskLevel riskScore createdAt ip
        device { browser os deviceType model }
        location { city countryName isp }
        signals { vpn emulator rooted geoMismatch knownFraudDevice multipleAccounts deviceAge }
        reasons { signal detail } }
    }
    ipAnalyses(first: 3) {
      nodes { id ip riskLevel riskScore checkedAt
        geolocation { city countryName }
        network { isp asn connectionType }
        threats { isVpn isProxy isTor isDatacenter isKnownAbuser } }
    }
  }
}`;

const AUDIT_ENTRY = 'id occurredAt action reviewer resourceType resourceId details actor { kind clientName sessionUserId }';

/**
 * The case's audit trail, newest first: who viewed its images, who decided it. Read apart (a key
 * without `audit:read` still sees the case); filtered on the person when the record names one,
 * else on the record.
 */
export const CASE_AUDIT = `query CaseAudit($filter: AuditEntryFilter!) {
  trail: auditEntries(first: 50, filter: $filter) { totalCount nodes { ${AUDIT_ENTRY} } }
}`;

/** The decisions: VERIFIED / REJECTED for verifications, a resolution per AML match, a review per alert. */
export const DECISIONS = {
  identity: `mutation ReviewIdentity($input: ReviewIdentityVerificationInput!) {
    result: reviewIdentityVerification(input: $input) { record: identityVerification { id overallStatus } ${USER_ERRORS} } }`,
  document: `mutation ReviewDocument($input: ReviewDocumentVerificationInput!) {
    result: reviewDocumentVerification(input: $input) { record: documentVerification { id status } ${USER_ERRORS} } }`,
  address: `mutation ReviewAddress($input: ReviewAddressVerificationInput!) {
    result: reviewAddressVerification(input: $input) { record: addressVerification { id status } ${USER_ERRORS} } }`,
  business: `mutation ReviewBusiness($input: ReviewBusinessVerificationInput!) {
    result: reviewBusinessVerification(input: $input) { record: businessVerification { id status } ${USER_ERRORS} } }`,
  aml: `mutation ResolveAmlMatch($input: ResolveAmlMatchInput!) {
    result: resolveAmlMatch(input: $input) { record: amlScreening { id status } ${USER_ERRORS} } }`,
  alert: `mutation ReviewWatchlistAlert($input: ReviewWatchlistAlertInput!) {
    result: reviewWatchlistAlert(input: $input) { record: watchlistAlert { id status } ${USER_ERRORS} } }`,
} satisfies Record<QueueKind, string>;

const EVALUATION = 'id transactionId action score createdAt reasons transaction { amount currency }';

/** The risk feed: the latest REVIEW and BLOCK evaluations, then each new one as it is made; one in full when chosen. */
export const RISK_FEED = {
  review: `query RiskReviews { list: riskEvaluations(first: 50, filter: { action: REVIEW }) { nodes { ${EVALUATION} } } }`,
  block: `query RiskBlocks { list: riskEvaluations(first: 50, filter: { action: BLOCK }) { nodes { ${EVALUATION} } } }`,
  reviewFeed: `subscription RiskReviewFeed { event: riskEvaluationCreated(filter: { action: REVIEW }) { node { ${EVALUATION} } } }`,
  blockFeed: `subscription RiskBlockFeed { event: riskEvaluationCreated(filter: { action: BLOCK }) { node { ${EVALUATION} } } }`,
  one: `query RiskEvaluation($id: ID!) {
    evaluation: riskEvaluation(id: $id) {
      ${EVALUATION} mock
      transaction { channel sender { id } receiver { id } }
      rulesFired { id name action severity version }
      ruleErrors { id message }
      sanctionsHits { name party hit { matchedName listName score } }
    }
  }`,
};

const RULE = 'id name description condition action severity enabled isDefault version updatedAt';

export const RULES = {
  list: `query RiskRules { riskRules(first: 100) { nodes { ${RULE} } } }`,
  check: `query CheckCondition($condition: String!) {
    check: checkRiskRuleCondition(condition: $condition) { valid message position { offset length line column } } }`,
  upsert: `mutation UpsertRule($input: UpsertRiskRuleInput!) {
    result: upsertRiskRule(input: $input) { riskRule { ${RULE} } created effectiveAt ${USER_ERRORS} } }`,
};
