/**
 * One selection per GraphQL type, as a fragment: every route returning that type spreads it, so a
 * field added to the type is added here once. An operation appends only the fragments it spreads
 * (GraphQL rejects unused fragments). A REST body lists its members in the selection's order.
 */

/** Every mutation route selects its payload's user errors: the handler turns them into the REST error. */
export const USER_ERRORS = /* GraphQL */ `
  fragment UserErrorFields on UserError {
    field
    code
    message
  }
`;

export const IDENTITY_VERIFICATION = /* GraphQL */ `
  fragment IdentityVerificationFields on IdentityVerification {
    id
    userId
    tier
    overallStatus
    faceMatchScore
    verifiedAt
    steps {
      document
      liveness
      faceMatch
      aml
    }
    reasons
    reviewedBy
    reviewNotes
    reviewedAt
    invalidatedAt
    replacedById: replacedBy {
      id
    }
    restartedFromId: restartedFrom {
      id
    }
    createdAt
    updatedAt
  }
`;

export const API_CLIENT = /* GraphQL */ `
  fragment ApiClientFields on ApiClient {
    id
    name
    organizationId
    service
    environment
    keyPrefix
    permissions
    rateLimit
    active
    createdAt
  }
`;

export const WEBHOOK = /* GraphQL */ `
  fragment WebhookFields on Webhook {
    id
    clientId: client {
      id
    }
    callbackUrl
    events
    active
    createdAt
  }
`;

export const DEVICE_ASSESSMENT = /* GraphQL */ `
  fragment DeviceAssessmentFields on DeviceAssessment {
    id
    userId
    sessionId
    deviceId
    firstSeen
    riskScore
    riskLevel
    signals {
      emulator
      rooted
      vpn
      knownFraudDevice
      geoMismatch
      multipleAccounts
      deviceAge
    }
    location {
      country
      countryName
      city
      isp
    }
    ip
    ipDetected
    device {
      browser
      os
      deviceType
      vendor
      model
    }
    reasons {
      signal
      weight
      detail
    }
    createdAt
  }
`;

export const IP_ANALYSIS = /* GraphQL */ `
  fragment IpAnalysisFields on IpAnalysis {
    id
    ip
    userId
    version
    riskScore
    riskLevel
    geolocation {
      country
      countryName
      region
      city
      latitude
      longitude
      timezone
    }
    network {
      isp
      organization
      asn
      connectionType
    }
    threats {
      isVpn
      isProxy
      isTor
      isDatacenter
      isKnownAbuser
      threatTypes
    }
    matchedRanges {
      feed
      category
      network
      provider
      service
      region
    }
    checkedAt
  }
`;

export const AML_SCREENING = /* GraphQL */ `
  fragment AmlScreeningFields on AmlScreening {
    id
    userId
    fullName
    dateOfBirth
    nationality
    documentNumber
    matchThreshold
    lists
    status
    riskLevel
    matchCount
    matches {
      id
      hit {
        listName
        source
        kind
        externalId
        entityType
        primaryName
        matchedName
        score
        programs
        addedDate
        listVersion
      }
      explanation {
        nameScore
        tokens {
          query
          matched
          how
          score
          weight
        }
        qualifiers {
          kind
          effect
          detail
        }
        rules {
          rule
          factor
          detail
        }
      }
      resolution
      resolvedBy
      resolutionReason
      resolvedAt
    }
    listsChecked
    listVersions {
      source
      version
      kind
    }
    batchId: batch {
      id
    }
    checkedAt
    resolvedAt
    createdAt
    updatedAt
  }
`;

/**
 * A batch with every subject's line: the operation declares `$subjects: Int` and passes 100 (a batch
 * holds at most 100 subjects, one page).
 */
export const AML_BATCH = /* GraphQL */ `
  fragment AmlBatchFields on AmlBatch {
    id
    status
    total
    processed
    clearCount
    flaggedCount
    failedCount
    callbackUrl
    callbackStatus
    callbackAttempts
    callbackLastStatusCode
    callbackDeliveredAt
    callbackNextAttemptAt
    createdAt
    completedAt
    results: subjects(first: $subjects) {
      nodes {
        position
        userId
        fullName
        status
        screeningId: screening {
          id
        }
        riskLevel
        matchCount
        error
      }
    }
  }
`;

export const WATCHLIST_SUBSCRIPTION = /* GraphQL */ `
  fragment WatchlistSubscriptionFields on WatchlistSubscription {
    id
    userId
    fullName
    dateOfBirth
    nationality
    country
    status
    lists
    matchThreshold
    nextScanAt
    lastScanAt
    createdAt
    cancelledAt
  }
`;

export const WATCHLIST_ALERT = /* GraphQL */ `
  fragment WatchlistAlertFields on WatchlistAlert {
    id
    subscriptionId: subscription {
      id
    }
    userId
    status
    match {
      listName
      matchScore: score
      matchedName
      source
      addedDate
      kind
      externalId
      primaryName
      listVersion
      programs
    }
    detectedAt
    clearedAt
    reviewedBy
    reviewNote
    reviewedAt
  }
`;

export const NOTIFICATION = /* GraphQL */ `
  fragment NotificationFields on Notification {
    id
    status
    channels {
      channel
      status
      provider
      latencyMs
      openedAt
      reason
      attempts
      sentAt
      deliveredAt
      failedAt
      nextAttemptAt
      updatedAt
    }
    template {
      template: name
      templateVersion: version
      templateId: id
    }
    to
    recipientId
    batchId: batch {
      id
    }
    createdAt
    updatedAt
  }
`;

export const NOTIFICATION_BATCH = /* GraphQL */ `
  fragment NotificationBatchFields on NotificationBatch {
    id
    total
    queued
    status
    processed
    succeeded
    failed
    template {
      template: name
      templateVersion: version
    }
    channelProgress {
      channel
      queued
      sent
      delivered
      opened
      failed
      undeliverable
    }
    createdAt
    completedAt
  }
`;

export const NOTIFICATION_TEMPLATE = /* GraphQL */ `
  fragment NotificationTemplateFields on NotificationTemplate {
    id
    name
    version
    channels
    placeholders
    content {
      email {
        subject
        html
      }
      sms {
        body
      }
      push {
        title
        body
      }
    }
    createdAt
  }
`;

export const NOTIFICATION_RECIPIENT = /* GraphQL */ `
  fragment NotificationRecipientFields on NotificationRecipient {
    id
    email
    phone
    pushTokens
    webPushSubscriptions {
      endpoint
      keys {
        p256dh
        auth
      }
    }
    locale
    createdAt
    updatedAt
  }
`;

export const SANDBOX_MESSAGE = /* GraphQL */ `
  fragment SandboxMessageFields on SandboxMessage {
    id
    notificationId: notification {
      id
    }
    channel
    to
    subject
    html
    title
    body
    createdAt
  }
`;

/** What POST /v1/evaluate answers (the lookup has the details). */
export const RISK_EVALUATION_SUMMARY = /* GraphQL */ `
  fragment RiskEvaluationSummaryFields on RiskEvaluation {
    id
    transactionId
    score
    action
    mock
    latencyMs
    layers {
      rules {
        fired
        checked
        score
      }
      graph {
        patternsFound
        nodesTraversed
        score
      }
      sanctions {
        hits
        listsChecked
        score
      }
    }
    reasons
    createdAt
  }
`;

/** The summary with what each layer found; carries the summary fragment it spreads. */
export const RISK_EVALUATION = /* GraphQL */ `
  fragment RiskEvaluationFields on RiskEvaluation {
    ...RiskEvaluationSummaryFields
    rulesFired {
      id
      name
      description
      version
      action
      severity
    }
    ruleErrors {
      id
      version
      message
    }
    graphPatterns {
      type
      weight
      accounts
      length
      count
      ratio
      device
    }
    sanctionsHits {
      party
      account {
        id
      }
      name
      hit {
        source
        kind
        externalId
        primaryName
        matchedName
        score
        listVersion
      }
    }
    transaction {
      amount
      currency
      sender {
        id
      }
      receiver {
        id
      }
      channel
      metadata
    }
    rulesRevision
  }
  ${RISK_EVALUATION_SUMMARY}
`;

export const RISK_RULE = /* GraphQL */ `
  fragment RiskRuleFields on RiskRule {
    id
    name
    description
    condition
    action
    severity
    enabled
    version
    isDefault
    createdAt
    updatedAt
  }
`;

export const DOCUMENT_VERIFICATION = /* GraphQL */ `
  fragment DocumentVerificationFields on DocumentVerification {
    id
    userId
    documentType
    documentCountry
    frontImageUrl
    backImageUrl
    status
    extractedData {
      fullName
      dateOfBirth
      documentNumber
      expiryDate
      nationality
    }
    confidence
    reasons
    checks {
      mrzFound
      mrzValid
      mrzFailedChecks
      expired
      faceFound
      sharpness
      ocrConfidence
    }
    verifiedAt
    checkedAt
    reviewedBy
    reviewNotes
    reviewedAt
    imagesDeletedAt
    createdAt
    updatedAt
  }
`;

/** A liveness session as lookups show it (never its token). */
export const LIVENESS_SESSION = /* GraphQL */ `
  fragment LivenessSessionFields on LivenessSession {
    id
    userId
    status
    instructions
    challenges {
      id
      type
      instruction
      outcome
      framesRequired
      framesReceived
      score
      measured {
        headYaw
        headPitch
        pitchChange
        smile
        eyeOpenness
        mouthWidth
        mouthCornerLift
        reference {
          headYaw
          headPitch
          smile
          eyeOpenness
          mouthWidth
          mouthCornerLift
        }
        antiSpoofScore
        faceMatchScore
      }
      completedAt
    }
    challengesCompleted
    challengesTotal
    referenceSelfieReceived
    isComplete
    nextStep
    result {
      isAlive
      confidence
      antiSpoofScore
      faceMatchScore
      failureReason
    }
    expiresAt
    createdAt
    updatedAt
    completedAt
  }
`;

export const BIOMETRIC_DEDUP_CHECK = /* GraphQL */ `
  fragment BiometricDedupCheckFields on BiometricDedupCheck {
    id
    userId
    status
    matchFound
    enrolled
    matches {
      matchedUserId
      similarity
      enrolledAt
    }
    threshold
    errorReason
    checkedAt
    createdAt
  }
`;

export const COGNITIVE_KYC_CHECK = /* GraphQL */ `
  fragment CognitiveKycCheckFields on CognitiveKycCheck {
    id
    userId
    decision
    confidence
    faceMatchScore
    faceMatchReasoning
    documentFields {
      fullName
      dateOfBirth
      documentNumber
      expiryDate
      nationality
      documentType
    }
    fraudIndicators {
      tampering
      photoManipulation
      expiredDocument
      blurryImage
    }
    fraudHistory {
      priorVerifications
      flaggedAttempts
      riskLevel
    }
    reasons
    timestamp
  }
`;

export const MOBILE_MONEY_VERIFICATION = /* GraphQL */ `
  fragment MobileMoneyVerificationFields on MobileMoneyVerification {
    id
    userId
    phoneNumber
    provider
    country
    status
    accountHolder
    nameMatch
    nameMatchScore
    accountStatus
    verifiedAt
    createdAt
    expectedName
    nameMatchExplanation {
      summary
      threshold
      parts {
        expected
        holder
        how
        score
      }
    }
    failureReason
    adapter
    attempts
    checkedAt
    updatedAt
  }
`;

/** Ordered as the spec's phone record (then what the spec leaves open). */
export const PHONE_VERIFICATION = /* GraphQL */ `
  fragment PhoneVerificationFields on PhoneVerification {
    id
    userId
    phoneNumber
    channel
    status
    expiresAt
    createdAt
    attemptsRemaining
    verifiedAt
    locale
    country
    lineType
    sends
    failureReason
    updatedAt
  }
`;

/** The spec's address record first (`id` … `completedAt`), then what the check measured. */
export const ADDRESS_VERIFICATION = /* GraphQL */ `
  fragment AddressVerificationFields on AddressVerification {
    id
    userId
    documentType
    status
    createdAt
    extractedData {
      fullName
      address
      issueDate
      issuer
    }
    addressMatch
    documentAge
    completedAt
    country
    documentSource
    documentUrl
    documentImageUrl
    expectedAddress
    addressMatchScore
    addressMatchExplanation
    documentAgeDays
    textConfidence
    reasons
    checkedAt
    reviewedBy
    reviewNotes
    reviewedAt
    updatedAt
  }
`;

/** Ordered as the spec's email record (then what the spec leaves open). */
export const EMAIL_VERIFICATION = /* GraphQL */ `
  fragment EmailVerificationFields on EmailVerification {
    id
    userId
    email
    status
    expiresAt
    createdAt
    verifiedAt
    method
    redirectUrl
    disposable
    attemptsRemaining
    sends
    failureReason
    updatedAt
  }
`;

/** A business verification as the spec's record (id … registryData, createdAt, completedAt), then its people and review. */
export const BUSINESS_VERIFICATION = /* GraphQL */ `
  fragment BusinessVerificationFields on BusinessVerification {
    id
    userId
    businessName
    registrationNumber
    country
    businessType
    taxId
    status
    steps {
      registration
      directors
      ubo
      amlScreening
    }
    registryData {
      legalName
      dateIncorporated
      status
      registeredAddress
      capital
      registrationNumber
      companyType
      officers {
        name
        position
      }
    }
    registryLookup {
      provider
      attempts
      lastAttemptAt
      nextAttemptAt
      lastError
    }
    directors {
      id
      fullName
      role
      position: role
      dateOfBirth
      nationality
      idNumber
      screeningStatus
      matchCount
      amlScreeningId: amlScreening {
        id
      }
      createdAt
    }
    ubos {
      id
      fullName
      ownershipPercentage
      controlType
      dateOfBirth
      nationality
      screeningStatus
      matchCount
      amlScreeningId: amlScreening {
        id
      }
      createdAt
    }
    reasons
    reviewedBy
    reviewNotes
    reviewedAt
    createdAt
    updatedAt
    completedAt
  }
`;

export const USER_ERASURE = /* GraphQL */ `
  fragment UserErasureFields on UserErasure {
    id
    userId
    status
    services {
      service
      status
      completedAt
      erased {
        kind
        count
      }
      attempts
      lastError
    }
    createdAt
    updatedAt
    completedAt
  }
`;

export const RETENTION_POLICY = /* GraphQL */ `
  fragment RetentionPolicyFields on RetentionPolicy {
    documentsDays
    livenessFramesDays
    notificationBodiesDays
    providerResponsesDays
    eventPayloadsDays
    customized
    updatedAt
    lastEnforcedAt
  }
`;

export const AUDIT_ENTRY = /* GraphQL */ `
  fragment AuditEntryFields on AuditEntry {
    id
    occurredAt
    action
    actor {
      kind
      clientId
      clientName
      sessionUserId
    }
    reviewer
    resourceType
    resourceId
    userId
    details
    hash
    previousHash
  }
`;

export const ORGANIZATION_REENCRYPTION = /* GraphQL */ `
  fragment OrganizationReencryptionFields on OrganizationReencryption {
    organizationId
    keyVersion
    values
    files
  }
`;
