import { DEVICE_ASSESSMENT, IP_ANALYSIS } from '../fragments.js';
import { mapMember, onlyMembers } from '../mapping.js';
import type { Route } from '../route.js';

/** Browser SDKs send more fingerprint members than the spec's: only the spec's go to GraphQL. */
const FINGERPRINT_MEMBERS = ['userAgent', 'platform', 'screenResolution', 'timezone', 'language', 'webgl', 'canvas', 'ip'];

const ANALYZE_IP = /* GraphQL */ `
  mutation AnalyzeIp($input: AnalyzeIpInput!) {
    analyzeIp(input: $input) {
      ...IpAnalysisFields
    }
  }
  ${IP_ANALYSIS}
`;

export const intelligenceRoutes: Route[] = [
  {
    method: 'POST',
    path: '/intelligence/device/fingerprint',
    summary: 'Assess a device from its browser fingerprint',
    body: [
      { name: 'userId', type: 'string', required: true },
      { name: 'sessionId', type: 'string', required: true },
      {
        name: 'fingerprint',
        type: 'object',
        required: true,
        description:
          'userAgent, platform, screenResolution, timezone (IANA), language, webgl, canvas (strings, optional; at least one); ip',
      },
      { name: 'ip', type: 'string', description: 'Detected from the request when omitted' },
    ],
    example: {
      userId: 'user_1001',
      sessionId: 'sess_7f3a',
      fingerprint: {
        userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/130.0',
        platform: 'Linux armv8l',
        screenResolution: '1080x2400',
        timezone: 'Africa/Lagos',
        language: 'en-NG',
      },
      ip: '102.89.34.10',
    },
    operation: /* GraphQL */ `
      mutation AssessDevice($input: AssessDeviceInput!) {
        assessDevice(input: $input) {
          ...DeviceAssessmentFields
        }
      }
      ${DEVICE_ASSESSMENT}
    `,
    variables: ({ body }) => ({ input: mapMember(body, 'fingerprint', (fingerprint) => onlyMembers(fingerprint, FINGERPRINT_MEMBERS)) }),
  },
  {
    method: 'GET',
    path: '/intelligence/device/:id',
    summary: 'Get a device assessment (assessment id, or dfp_ device id for its latest)',
    operation: /* GraphQL */ `
      query DeviceAssessment($id: String!) {
        deviceAssessment(id: $id) {
          ...DeviceAssessmentFields
        }
      }
      ${DEVICE_ASSESSMENT}
    `,
    variables: ({ params }) => ({ id: params.id }),
  },
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
          ...IpAnalysisFields
        }
      }
      ${IP_ANALYSIS}
    `,
    variables: ({ body }) => ({ ipAddress: body.ipAddress, userId: body.userId }),
  },
];
