import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import type { Route } from '../../../../platform/rest/route.js';

const IP_ANALYSIS = /* GraphQL */ `
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

const ANALYZE_IP = /* GraphQL */ `
  mutation AnalyzeIp($input: AnalyzeIpInput!) {
    analyzeIp(input: $input) {
      ipAnalysis {
        ...IpAnalysisFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
  ${IP_ANALYSIS}
  ${USER_ERRORS}
`;

/** IP analysis: Form A (`/intelligence/ip`) and Form B (`/intelligence/ip/check`). */
export const ipRoutes: Route[] = [
  {
    method: 'POST',
    path: '/intelligence/ip',
    summary: 'Analyse an IP address (Form A)',
    body: [
      { name: 'ip', type: 'string', required: true, description: 'IPv4 or IPv6' },
      { name: 'userId', type: 'string' },
    ],
    example: { ip: '102.89.34.10', userId: 'user_1001' },
    operation: ANALYZE_IP,
    variables: ({ body }) => ({ input: body }),
    result: (data) => data.analyzeIp.ipAnalysis,
  },
  {
    method: 'POST',
    path: '/intelligence/ip/check',
    summary: 'Analyse an IP address (Form B)',
    body: [
      { name: 'ipAddress', type: 'string', required: true, description: 'IPv4 or IPv6' },
      { name: 'userId', type: 'string', required: true },
    ],
    example: { ipAddress: '102.89.34.10', userId: 'user_1001' },
    operation: /* GraphQL */ `
      mutation CheckIp($ipAddress: String!, $userId: String!) {
        analyzeIp(input: { ip: $ipAddress, userId: $userId }) {
          ipAnalysis {
            ...IpAnalysisFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${IP_ANALYSIS}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ ipAddress: body.ipAddress, userId: body.userId }),
    result: (data) => data.analyzeIp.ipAnalysis,
  },
];
