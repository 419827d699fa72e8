/**
 * One selection per GraphQL type, as a fragment: every route returning that type spreads it, so a
 * field added to the type is added here once. An operation appends only the fragments it spreads
 * (GraphQL rejects unused fragments).
 */

export const IDENTITY_VERIFICATION = /* GraphQL */ `
fragment IdentityVerificationFields on IdentityVerification {
  id userId tier overallStatus faceMatchScore verifiedAt reviewedBy reviewNotes reviewedAt
  invalidatedAt replacedById restartedFromId createdAt updatedAt
}`;

export const CREATED_API_CLIENT = /* GraphQL */ `
fragment CreatedApiClientFields on CreatedApiClient {
  id name organizationId service environment apiKey keyPrefix permissions rateLimit message createdAt
}`;

export const CREATED_WEBHOOK = /* GraphQL */ `
fragment CreatedWebhookFields on CreatedWebhook {
  id clientId callbackUrl events secret message active createdAt
}`;

export const WEBHOOK = /* GraphQL */ `
fragment WebhookFields on Webhook {
  id clientId callbackUrl events active createdAt
}`;

export const DELETED_WEBHOOK = /* GraphQL */ `
fragment DeletedWebhookFields on DeletedWebhook {
  id active message
}`;
