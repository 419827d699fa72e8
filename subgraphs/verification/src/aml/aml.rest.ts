import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import { mapMember, onlyMembers, type ResponseMapping } from '../../../../platform/rest/mapping.js';
import { connectionSlice, pageBody, PAGE_QUERY } from '../../../../platform/rest/paging.js';
import type { Field, OperationData, Route } from '../../../../platform/rest/route.js';

const AML_SCREENING = /* GraphQL */ `
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
const AML_BATCH = /* GraphQL */ `
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

const LISTS = ['SANCTIONS', 'PEP', 'ADVERSE_MEDIA', 'LAW_ENFORCEMENT'] as const;

/** The spec's AML request record. */
const AML_REQUEST: Field[] = [
  { name: 'userId', type: 'string', required: true },
  { name: 'fullName', type: 'string', required: true },
  { name: 'dateOfBirth', type: 'string', description: 'YYYY-MM-DD' },
  { name: 'nationality', type: 'string', description: 'ISO 3166-1 alpha-2' },
  { name: 'documentNumber', type: 'string' },
  { name: 'matchThreshold', type: 'number', description: '0–1, default 0.85' },
  { name: 'lists', type: { array: { enum: LISTS } }, description: 'Default: all' },
];
const AML_REQUEST_FIELDS = AML_REQUEST.map((f) => f.name);

/** Subjects keep only the request record's fields (as top-level bodies do). */
const subjectsOf = (value: unknown) => (Array.isArray(value) ? value.map((s) => onlyMembers(s, AML_REQUEST_FIELDS)) : value);

type Json = Record<string, any>;

/** A batch holds at most this many subjects: its lines are one page. */
const MAX_BATCH_SUBJECTS = 100;

/** The spec's match: the list entry's members in the match itself, token matches in lower case, the batch by id. */
/** The spec's qualifier kinds are the request's field names (the graph's are SCREAMING_CASE). */
const QUALIFIER_KINDS: Record<string, string> = {
  DATE_OF_BIRTH: 'dateOfBirth',
  NATIONALITY: 'nationality',
  DOCUMENT_NUMBER: 'documentNumber',
};
/** The matcher's rule names as the engine writes them (the graph's are SCREAMING_CASE): LEGAL_FORM_DIFFERS → legalFormDiffers. */
const ruleName = (rule: string) => rule.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const SCREENING_BODY: ResponseMapping = {
  flatten: ['matches.hit'],
  lowercase: ['matches.explanation.tokens.how'],
  values: {
    'matches.explanation.qualifiers.kind': (kind) => QUALIFIER_KINDS[kind] ?? kind,
    'matches.explanation.rules.rule': ruleName,
  },
  ids: ['batchId'],
};

/** A batch's subjects as the spec's `results` list. */
const specBatch = (batch: Json | null): Json | null => batch && { ...batch, results: batch.results.nodes };

/** The spec's 202 answer to a batch: the batch, its callback secret (shown once) and what to do next. */
function acceptedBatch(data: OperationData): Json {
  const { amlBatch: batch, callbackSecret } = data.createAmlBatch;
  return {
    id: batch.id,
    batchId: batch.id,
    status: batch.status,
    total: batch.total,
    callbackUrl: batch.callbackUrl,
    callbackSecret,
    message: callbackSecret
      ? 'Batch accepted. The callback is signed with callbackSecret like webhooks; store it: it will not be shown again.'
      : 'Batch accepted. Read its status with amlBatch(id) or GET /screening/aml/batch/{id}.',
    createdAt: batch.createdAt,
  };
}

export const screeningRoutes: Route[] = [
  {
    method: 'POST',
    path: '/screening/aml',
    summary: 'Screen a person against sanctions, PEP, adverse-media and law-enforcement lists',
    body: AML_REQUEST,
    example: { userId: 'user_1001', fullName: 'Amina Wanjiru Odhiambo', dateOfBirth: '1984-02-29', nationality: 'KE' },
    operation: /* GraphQL */ `
      mutation ScreenAml($input: ScreenAmlInput!) {
        screenAml(input: $input) {
          amlScreening {
            ...AmlScreeningFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${AML_SCREENING}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.screenAml.amlScreening,
    response: SCREENING_BODY,
  },
  {
    method: 'POST',
    path: '/screening/aml/batch',
    summary: 'Screen up to 100 people in the background (202); callbackUrl is POSTed, signed, when done',
    body: [
      { name: 'subjects', type: { array: 'object' }, required: true, description: 'AML request records, at most 100' },
      { name: 'callbackUrl', type: 'string', description: 'HTTPS URL' },
    ],
    example: {
      subjects: [
        { userId: 'user_1001', fullName: 'Amina Wanjiru Odhiambo', nationality: 'KE' },
        { userId: 'user_1002', fullName: 'Kwame Osei Mensah' },
      ],
    },
    operation: /* GraphQL */ `
      mutation CreateAmlBatch($input: CreateAmlBatchInput!) {
        createAmlBatch(input: $input) {
          amlBatch {
            id
            status
            total
            callbackUrl
            createdAt
          }
          callbackSecret
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: mapMember(body, 'subjects', subjectsOf) }),
    result: acceptedBatch,
    status: 202,
  },
  {
    method: 'GET',
    path: '/screening/aml/batch/:id',
    summary: 'Status and results of an AML batch',
    operation: /* GraphQL */ `
      query AmlBatch($id: ID!, $subjects: Int) {
        amlBatch(id: $id) {
          ...AmlBatchFields
        }
      }
      ${AML_BATCH}
    `,
    variables: ({ params }) => ({ id: params.id, subjects: MAX_BATCH_SUBJECTS }),
    result: (data) => specBatch(data.amlBatch),
    response: { ids: ['results.screeningId'] },
    notFound: 'AML batch',
  },
  {
    method: 'GET',
    path: '/screening/aml/user/:userId',
    summary: "List a user's AML screenings",
    query: PAGE_QUERY,
    operation: /* GraphQL */ `
      query AmlScreeningsByUser($userId: String!, $first: Int, $after: String) {
        amlScreenings(filter: { userId: $userId }, first: $first, after: $after) {
          nodes {
            ...AmlScreeningFields
          }
          totalCount
        }
      }
      ${AML_SCREENING}
    `,
    variables: ({ params, query }) => ({ userId: params.userId, ...connectionSlice(query) }),
    result: (data, { query }) => pageBody(data.amlScreenings, query),
    response: { ...SCREENING_BODY, records: 'data' },
  },
  {
    method: 'GET',
    path: '/screening/aml/:id',
    summary: 'Get an AML screening',
    operation: /* GraphQL */ `
      query AmlScreening($id: ID!) {
        amlScreening(id: $id) {
          ...AmlScreeningFields
        }
      }
      ${AML_SCREENING}
    `,
    variables: ({ params }) => ({ id: params.id }),
    result: (data) => data.amlScreening,
    response: SCREENING_BODY,
    notFound: 'AML screening',
  },
  {
    method: 'POST',
    path: '/screening/aml/:id/matches/:matchId/resolve',
    summary: 'Resolve a match as a true or false positive (reviewer and reason kept)',
    body: [
      { name: 'resolution', type: { enum: ['TRUE_POSITIVE', 'FALSE_POSITIVE'] }, required: true },
      { name: 'resolvedBy', type: 'string', required: true },
      { name: 'reason', type: 'string', required: true },
    ],
    example: { resolution: 'FALSE_POSITIVE', resolvedBy: 'officer@example.com', reason: 'Different date of birth' },
    operation: /* GraphQL */ `
      mutation ResolveAmlMatch($input: ResolveAmlMatchInput!) {
        resolveAmlMatch(input: $input) {
          amlScreening {
            ...AmlScreeningFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${AML_SCREENING}
      ${USER_ERRORS}
    `,
    variables: ({ params, body }) => ({ input: { ...body, screeningId: params.id, matchId: params.matchId } }),
    result: (data) => data.resolveAmlMatch.amlScreening,
    response: SCREENING_BODY,
  },
];
