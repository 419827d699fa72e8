import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import type { OperationData, Route } from '../../../../platform/rest/route.js';
import { connectionSlice, pageBody, PAGE_QUERY } from '../../../../platform/rest/paging.js';

/** A liveness session as lookups show it (never its token). */
const LIVENESS_SESSION = /* GraphQL */ `
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

/** The spec's submission response (with the session's id and challenges): progress while IN_PROGRESS, `result` once complete. */
function progressBody(session: OperationData, sessionToken: unknown) {
  const { id, status, challengesCompleted, challengesTotal, isComplete, nextStep, result, challenges } = session;
  return { id, sessionToken, status, challengesCompleted, challengesTotal, isComplete, nextStep, result, challenges };
}

/** A multipart submission route: its text fields, one file, the payload mutation it calls and the progress body it answers. */
function submissionRoute(opts: {
  path: string;
  summary: string;
  mutation: 'submitLivenessChallenge' | 'submitLivenessReferenceSelfie';
  fields: string[];
  file: { name: string; description: string };
}): Route {
  const operation = opts.mutation[0].toUpperCase() + opts.mutation.slice(1);
  return {
    method: 'POST',
    path: opts.path,
    summary: opts.summary,
    body: opts.fields.map((name) => ({ name, type: 'string', required: true })),
    files: [{ ...opts.file, required: true }],
    example: Object.fromEntries(opts.fields.map((name) => [name, name === 'sessionToken' ? 'lvs_example' : 'chl_example'])),
    operation: /* GraphQL */ `
      mutation ${operation}($input: ${operation}Input!) {
        ${opts.mutation}(input: $input) {
          livenessSession {
            ...LivenessSessionFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${LIVENESS_SESSION}
      ${USER_ERRORS}
    `,
    variables: ({ body, files }) => ({ input: { ...body, [opts.file.name]: files[opts.file.name] } }),
    result: (data, { body }) => progressBody(data[opts.mutation].livenessSession, body.sessionToken),
  };
}

export const livenessRoutes: Route[] = [
  {
    method: 'POST',
    path: '/verifications/liveness/session',
    summary: 'Start a liveness session (2 or 3 random challenges, open for 10 minutes)',
    body: [{ name: 'userId', type: 'string', required: true }],
    example: { userId: 'user_1001' },
    operation: /* GraphQL */ `
      mutation CreateLivenessSession($input: CreateLivenessSessionInput!) {
        createLivenessSession(input: $input) {
          sessionToken
          livenessSession {
            ...LivenessSessionFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${LIVENESS_SESSION}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: body }),
    // the spec's create response (sessionToken, expiresAt, challenges, instructions) with the id and status
    result: (data) => {
      const { livenessSession: s, sessionToken } = data.createLivenessSession;
      return {
        id: s.id,
        sessionToken,
        status: s.status,
        expiresAt: s.expiresAt,
        challenges: s.challenges.map(({ id, type, instruction }: OperationData) => ({ id, type, instruction })),
        instructions: s.instructions,
        userId: s.userId,
        nextStep: s.nextStep,
        createdAt: s.createdAt,
      };
    },
    status: 201,
  },
  submissionRoute({
    path: '/verifications/liveness/challenge',
    summary: 'Send one photo of a challenge (a NOD: two photos, the same challengeId twice, chin down then chin up)',
    mutation: 'submitLivenessChallenge',
    fields: ['sessionToken', 'challengeId'],
    file: { name: 'photo', description: 'As the camera took it (not mirrored): JPEG, PNG, WebP or HEIC, one face' },
  }),
  submissionRoute({
    path: '/verifications/liveness/reference-selfie',
    summary: 'Send the reference selfie the challenge photos are matched against',
    mutation: 'submitLivenessReferenceSelfie',
    fields: ['sessionToken'],
    file: { name: 'selfie', description: 'The user alone, facing the camera: JPEG, PNG, WebP or HEIC' },
  }),
  {
    method: 'GET',
    path: '/verifications/liveness/:id',
    summary: 'Get a liveness session',
    operation: /* GraphQL */ `
      query LivenessSession($id: ID!) {
        livenessSession(id: $id) {
          ...LivenessSessionFields
        }
      }
      ${LIVENESS_SESSION}
    `,
    variables: ({ params }) => ({ id: params.id }),
    notFound: 'Liveness session',
  },
  {
    method: 'GET',
    path: '/verifications/liveness/user/:userId',
    summary: "List a user's liveness sessions",
    query: PAGE_QUERY,
    operation: /* GraphQL */ `
      query LivenessSessionsByUser($userId: String!, $first: Int, $after: String) {
        livenessSessions(filter: { userId: $userId }, first: $first, after: $after) {
          nodes {
            ...LivenessSessionFields
          }
          totalCount
        }
      }
      ${LIVENESS_SESSION}
    `,
    variables: ({ params, query }) => ({ userId: params.userId, ...connectionSlice(query) }),
    result: (data, { query }) => pageBody(data.livenessSessions, query),
  },
];
