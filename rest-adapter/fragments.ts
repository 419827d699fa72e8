/**
 * One selection per GraphQL type, as a fragment: every route returning that type spreads it, so a
 * field added to the type is added here once. An operation appends only the fragments it spreads
 * (GraphQL rejects unused fragments).
 */

export const IDENTITY_VERIFICATION = /* GraphQL */ `
  fragment IdentityVerificationFields on IdentityVerification {
    id
    userId
    tier
    overallStatus
    faceMatchScore
    verifiedAt
    reviewedBy
    reviewNotes
    reviewedAt
    invalidatedAt
    replacedById
    restartedFromId
    createdAt
    updatedAt
  }
`;

export const CREATED_API_CLIENT = /* GraphQL */ `
  fragment CreatedApiClientFields on CreatedApiClient {
    id
    name
    organizationId
    service
    environment
    apiKey
    keyPrefix
    permissions
    rateLimit
    message
    createdAt
  }
`;

export const CREATED_WEBHOOK = /* GraphQL */ `
  fragment CreatedWebhookFields on CreatedWebhook {
    id
    clientId
    callbackUrl
    events
    secret
    message
    active
    createdAt
  }
`;

export const WEBHOOK = /* GraphQL */ `
  fragment WebhookFields on Webhook {
    id
    clientId
    callbackUrl
    events
    active
    createdAt
  }
`;

export const DELETED_WEBHOOK = /* GraphQL */ `
  fragment DeletedWebhookFields on DeletedWebhook {
    id
    active
    message
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
    batchId
    checkedAt
    resolvedAt
    createdAt
    updatedAt
  }
`;

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
    results {
      position
      userId
      fullName
      status
      screeningId
      riskLevel
      matchCount
      error
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
    subscriptionId
    userId
    status
    match {
      listName
      matchScore
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
