/**
 * Every GraphQL operation the flow page sends, with the flow's session token: the public API's
 * own fields, as an integrator's backend would call them (operations.test.ts validates each against
 * schema/api.graphql).
 */

const USER_ERRORS = 'userErrors { field code message }';

export const FLOW = `query VerificationFlow($id: ID!) {
  verificationFlow(id: $id) { id userId status steps { step status checkId } expiresAt }
}`;

export const ASSESS_DOCUMENT_IMAGE = `mutation AssessDocumentImage($image: Upload!) {
  assessDocumentImage(input: { image: $image }) { assessment { acceptable sharpness brightness glare problems } ${USER_ERRORS} }
}`;

const DOCUMENT = 'id status reasons';

export const CREATE_DOCUMENT = `mutation CreateDocumentVerification($input: CreateDocumentVerificationInput!) {
  createDocumentVerification(input: $input) { documentVerification { ${DOCUMENT} } ${USER_ERRORS} }
}`;
export const DOCUMENT_QUERY = `query DocumentVerification($id: ID!) { documentVerification(id: $id) { ${DOCUMENT} } }`;
export const DOCUMENT_UPDATED = `subscription DocumentVerificationUpdated($id: ID!) {
  documentVerificationUpdated(id: $id) { type node { ${DOCUMENT} } }
}`;

const LIVENESS = `id status isComplete referenceSelfieReceived expiresAt
  challenges { id type outcome framesRequired framesReceived }
  result { isAlive failureReason }`;

export const CREATE_LIVENESS = `mutation CreateLivenessSession($input: CreateLivenessSessionInput!) {
  createLivenessSession(input: $input) { sessionToken livenessSession { ${LIVENESS} } ${USER_ERRORS} }
}`;
export const REFERENCE_SELFIE = `mutation SubmitLivenessReferenceSelfie($input: SubmitLivenessReferenceSelfieInput!) {
  submitLivenessReferenceSelfie(input: $input) { livenessSession { ${LIVENESS} } ${USER_ERRORS} }
}`;
export const CHALLENGE_PHOTO = `mutation SubmitLivenessChallenge($input: SubmitLivenessChallengeInput!) {
  submitLivenessChallenge(input: $input) { livenessSession { ${LIVENESS} } ${USER_ERRORS} }
}`;
export const LIVENESS_QUERY = `query LivenessSession($id: ID!) { livenessSession(id: $id) { ${LIVENESS} } }`;
export const LIVENESS_UPDATED = `subscription LivenessSessionUpdated($id: ID!) {
  livenessSessionUpdated(id: $id) { type node { ${LIVENESS} } }
}`;

const CODE = 'id status attemptsRemaining failureReason expiresAt';

/** Phone and email: the same shape, their own fields. */
export const CODE_OPERATIONS = {
  PHONE: {
    start: `mutation StartPhoneVerification($input: StartPhoneVerificationInput!) {
      startPhoneVerification(input: $input) { phoneVerification { ${CODE} phoneNumber } ${USER_ERRORS} }
    }`,
    verify: `mutation VerifyPhoneCode($input: VerifyPhoneCodeInput!) {
      verifyPhoneCode(input: $input) { phoneVerification { ${CODE} phoneNumber } ${USER_ERRORS} }
    }`,
    resend: `mutation ResendPhoneCode($input: ResendPhoneCodeInput!) {
      resendPhoneCode(input: $input) { phoneVerification { ${CODE} phoneNumber } ${USER_ERRORS} }
    }`,
    read: `query PhoneVerification($id: ID!) { phoneVerification(id: $id) { ${CODE} phoneNumber } }`,
    updated: `subscription PhoneVerificationUpdated($id: ID!) {
      phoneVerificationUpdated(id: $id) { type node { ${CODE} phoneNumber } }
    }`,
    field: 'phoneVerification',
  },
  EMAIL: {
    start: `mutation StartEmailVerification($input: StartEmailVerificationInput!) {
      startEmailVerification(input: $input) { emailVerification { ${CODE} email } ${USER_ERRORS} }
    }`,
    verify: `mutation VerifyEmailCode($input: VerifyEmailCodeInput!) {
      verifyEmailCode(input: $input) { emailVerification { ${CODE} email } ${USER_ERRORS} }
    }`,
    resend: `mutation ResendEmailCode($input: ResendEmailCodeInput!) {
      resendEmailCode(input: $input) { emailVerification { ${CODE} email } ${USER_ERRORS} }
    }`,
    read: `query EmailVerification($id: ID!) { emailVerification(id: $id) { ${CODE} email } }`,
    updated: `subscription EmailVerificationUpdated($id: ID!) {
      emailVerificationUpdated(id: $id) { type node { ${CODE} email } }
    }`,
    field: 'emailVerification',
  },
} as const;

const ADDRESS = 'id status reasons';

export const CREATE_ADDRESS = `mutation CreateAddressVerification($input: CreateAddressVerificationInput!) {
  createAddressVerification(input: $input) { addressVerification { ${ADDRESS} } ${USER_ERRORS} }
}`;
export const ADDRESS_QUERY = `query AddressVerification($id: ID!) { addressVerification(id: $id) { ${ADDRESS} } }`;
export const ADDRESS_UPDATED = `subscription AddressVerificationUpdated($id: ID!) {
  addressVerificationUpdated(id: $id) { type node { ${ADDRESS} } }
}`;
