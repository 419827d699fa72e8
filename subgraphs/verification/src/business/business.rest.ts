import { badInput } from '../../../../platform/errors.js';
import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import type { ResponseMapping } from '../../../../platform/rest/mapping.js';
import { connectionSlice, pageBody, PAGE_QUERY } from '../../../../platform/rest/paging.js';
import type { Route } from '../../../../platform/rest/route.js';

/** A business verification as the spec's record (id … registryData, createdAt, completedAt), then its people and review. */
const BUSINESS_VERIFICATION = /* GraphQL */ `
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

const BUSINESS_TYPES = ['SOLE_PROPRIETORSHIP', 'PARTNERSHIP', 'LLC', 'CORPORATION', 'NGO'] as const;
const CONTROL_TYPES = ['DIRECT', 'INDIRECT', 'BOTH'] as const;
const DECISIONS = ['VERIFIED', 'REJECTED'] as const;
/** The spec's record: each person's screening by id. */
const BUSINESS_BODY: ResponseMapping = { ids: ['directors.amlScreeningId', 'ubos.amlScreeningId'] };

const DIRECTOR_FIELDS = ['fullName', 'role', 'dateOfBirth', 'nationality', 'idNumber'] as const;
const UBO_FIELDS = ['fullName', 'ownershipPercentage', 'controlType', 'dateOfBirth', 'nationality'] as const;

/** The record's known fields (a value that is not an object goes as sent, for GraphQL to judge). */
function pick(record: unknown, fields: readonly string[]): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return record;
  return Object.fromEntries(fields.filter((f) => Object.hasOwn(record, f)).map((f) => [f, (record as Record<string, unknown>)[f]]));
}

/** Form B's position is Form A's role; either is taken in both forms. */
function director(record: unknown): unknown {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return record;
  const r = record as Record<string, unknown>;
  return pick(r.role === undefined && r.position !== undefined ? { ...r, role: r.position } : r, DIRECTOR_FIELDS);
}

/** Form B carries one record in the body: its required fields named as Form B names them. */
function requireFields(body: Record<string, unknown>, fields: string[]): void {
  const missing = fields.filter((f) => body[f] === undefined || body[f] === null);
  if (missing.length) throw badInput(missing.map((f) => `${f} is required`));
}

const ADD_DIRECTORS = /* GraphQL */ `
  mutation AddBusinessDirectors($input: AddBusinessDirectorsInput!) {
    addBusinessDirectors(input: $input) {
      businessVerification {
        ...BusinessVerificationFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
  ${BUSINESS_VERIFICATION}
  ${USER_ERRORS}
`;

const ADD_UBOS = /* GraphQL */ `
  mutation AddBusinessUbos($input: AddBusinessUbosInput!) {
    addBusinessUbos(input: $input) {
      businessVerification {
        ...BusinessVerificationFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
  ${BUSINESS_VERIFICATION}
  ${USER_ERRORS}
`;

export const businessRoutes: Route[] = [
  {
    method: 'POST',
    path: '/verifications/business',
    summary:
      'Start a business verification (KYB): 201 PENDING, the registry lookup running (business.verified / business.rejected / business.manual_review)',
    body: [
      { name: 'userId', type: 'string', required: true },
      { name: 'businessName', type: 'string', required: true },
      { name: 'registrationNumber', type: 'string', required: true, description: 'Sandbox: see the README for numbers with a set outcome' },
      { name: 'country', type: 'string', required: true, description: 'Uppercase ISO 3166-1 alpha-2' },
      { name: 'businessType', type: { enum: BUSINESS_TYPES } },
      { name: 'taxId', type: 'string', description: 'Form A' },
    ],
    example: {
      userId: 'user_1001',
      businessName: 'Kilimo Fresh Produce Limited',
      registrationNumber: 'PVT-2015-004512',
      country: 'KE',
      businessType: 'LLC',
      taxId: 'P051234567X',
    },
    operation: /* GraphQL */ `
      mutation CreateBusinessVerification($input: CreateBusinessVerificationInput!) {
        createBusinessVerification(input: $input) {
          businessVerification {
            ...BusinessVerificationFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${BUSINESS_VERIFICATION}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.createBusinessVerification.businessVerification,
    response: BUSINESS_BODY,
    status: 201,
  },
  {
    method: 'GET',
    path: '/verifications/business/user/:userId',
    summary: "List a user's business verifications (limit at most 100)",
    query: PAGE_QUERY,
    operation: /* GraphQL */ `
      query BusinessVerificationsByUser($userId: String!, $first: Int, $after: String) {
        businessVerifications(filter: { userId: $userId }, first: $first, after: $after) {
          nodes {
            ...BusinessVerificationFields
          }
          totalCount
        }
      }
      ${BUSINESS_VERIFICATION}
    `,
    variables: ({ params, query }) => ({ userId: params.userId, ...connectionSlice(query) }),
    result: (data, { query }) => pageBody(data.businessVerifications, query),
    response: { ...BUSINESS_BODY, records: 'data' },
  },
  {
    method: 'GET',
    path: '/verifications/business/:id',
    summary: 'Get a business verification with its steps, registry data, directors and UBOs',
    operation: /* GraphQL */ `
      query BusinessVerification($id: ID!) {
        businessVerification(id: $id) {
          ...BusinessVerificationFields
        }
      }
      ${BUSINESS_VERIFICATION}
    `,
    variables: ({ params }) => ({ id: params.id }),
    response: BUSINESS_BODY,
    notFound: 'Business verification',
  },
  {
    method: 'POST',
    path: '/verifications/business/:id/directors',
    summary:
      'Declare directors: Form A `directors` (array of records with `role`), Form B one record in the body (with `position`); each is screened; 200 with the business',
    body: [
      {
        name: 'directors',
        type: { array: 'object' },
        description: 'Form A: 1 to 50 records (fullName, role required; dateOfBirth, nationality, idNumber)',
      },
      { name: 'fullName', type: 'string', description: 'Form B (required there)' },
      { name: 'position', type: 'string', description: 'Form B (required there): the role' },
      { name: 'role', type: 'string', description: 'Form B: accepted for position' },
      { name: 'dateOfBirth', type: 'string', description: 'Form B: YYYY-MM-DD' },
      { name: 'nationality', type: 'string', description: 'Form B: uppercase ISO 3166-1 alpha-2' },
      { name: 'idNumber', type: 'string', description: 'Form B' },
    ],
    example: {
      directors: [
        { fullName: 'Wanjiku Kamau', role: 'Managing Director', dateOfBirth: '1980-05-14', nationality: 'KE', idNumber: '23456789' },
        { fullName: 'Otieno Odhiambo', role: 'Finance Director', nationality: 'KE' },
      ],
    },
    operation: ADD_DIRECTORS,
    variables: ({ params, body }) => {
      if (body.directors !== undefined) {
        const list = Array.isArray(body.directors) ? body.directors.map(director) : body.directors;
        return { input: { id: params.id, directors: list } };
      }
      requireFields(body, ['fullName', ...(body.role === undefined ? ['position'] : [])]);
      return { input: { id: params.id, directors: [director(body)] } };
    },
    result: (data) => data.addBusinessDirectors.businessVerification,
    response: BUSINESS_BODY,
  },
  {
    method: 'POST',
    path: '/verifications/business/:id/ubos',
    summary:
      'Declare ultimate beneficial owners: Form A `ubos` (array of records with `controlType`), Form B one record in the body; ownership 0–100, at most 100 in total; 200 with the business',
    body: [
      {
        name: 'ubos',
        type: { array: 'object' },
        description: 'Form A: 1 to 50 records (fullName, ownershipPercentage required; dateOfBirth, nationality, controlType)',
      },
      { name: 'fullName', type: 'string', description: 'Form B (required there)' },
      { name: 'ownershipPercentage', type: 'number', description: 'Form B (required there): 0 to 100' },
      { name: 'dateOfBirth', type: 'string', description: 'Form B: YYYY-MM-DD' },
      { name: 'nationality', type: 'string', description: 'Form B: uppercase ISO 3166-1 alpha-2' },
      { name: 'controlType', type: { enum: CONTROL_TYPES }, description: 'Form B: accepted as in Form A' },
    ],
    example: {
      ubos: [
        { fullName: 'Wanjiku Kamau', ownershipPercentage: 60, controlType: 'DIRECT', dateOfBirth: '1980-05-14', nationality: 'KE' },
        { fullName: 'Amani Holdings Trust', ownershipPercentage: 40, controlType: 'INDIRECT' },
      ],
    },
    operation: ADD_UBOS,
    variables: ({ params, body }) => {
      if (body.ubos !== undefined) {
        const list = Array.isArray(body.ubos) ? body.ubos.map((u) => pick(u, UBO_FIELDS)) : body.ubos;
        return { input: { id: params.id, ubos: list } };
      }
      requireFields(body, ['fullName', 'ownershipPercentage']);
      return { input: { id: params.id, ubos: [pick(body, UBO_FIELDS)] } };
    },
    result: (data) => data.addBusinessUbos.businessVerification,
    response: BUSINESS_BODY,
  },
  {
    method: 'POST',
    path: '/verifications/business/:id/review',
    summary: 'Record a reviewer’s decision on a business in MANUAL_REVIEW (409 in any other status)',
    body: [
      { name: 'decision', type: { enum: DECISIONS }, required: true },
      { name: 'reviewedBy', type: 'string', required: true },
      { name: 'reviewNotes', type: 'string', required: true },
    ],
    example: { decision: 'VERIFIED', reviewedBy: 'compliance@example.com', reviewNotes: 'Registry extract checked by hand' },
    operation: /* GraphQL */ `
      mutation ReviewBusinessVerification($input: ReviewBusinessVerificationInput!) {
        reviewBusinessVerification(input: $input) {
          businessVerification {
            ...BusinessVerificationFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${BUSINESS_VERIFICATION}
      ${USER_ERRORS}
    `,
    variables: ({ params, body }) => ({ input: { ...body, id: params.id } }),
    result: (data) => data.reviewBusinessVerification.businessVerification,
    response: BUSINESS_BODY,
  },
];
