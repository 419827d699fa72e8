import { USER_ERRORS } from '../../../../platform/rest/fragments.js';
import { mapMember, onlyMembers, type ResponseMapping } from '../../../../platform/rest/mapping.js';
import type { Route } from '../../../../platform/rest/route.js';

const DEVICE_ASSESSMENT = /* GraphQL */ `
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

/** Browser SDKs send more fingerprint members than the spec's: only the spec's go to GraphQL. */
const FINGERPRINT_MEMBERS = ['userAgent', 'platform', 'screenResolution', 'timezone', 'language', 'webgl', 'canvas', 'ip'];

/** The spec's assessment: the device type in lower case (the graph's is SCREAMING_CASE). */
/** The graph's risk signals (KNOWN_FRAUD_DEVICE) as the spec names them (knownFraudDevice). */
const specSignal = (signal: string) => signal.toLowerCase().replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
const DEVICE_BODY: ResponseMapping = { lowercase: ['device.deviceType'], values: { 'reasons.signal': specSignal } };

export const deviceRoutes: Route[] = [
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
          deviceAssessment {
            ...DeviceAssessmentFields
          }
          userErrors {
            ...UserErrorFields
          }
        }
      }
      ${DEVICE_ASSESSMENT}
      ${USER_ERRORS}
    `,
    variables: ({ body }) => ({ input: mapMember(body, 'fingerprint', (fingerprint) => onlyMembers(fingerprint, FINGERPRINT_MEMBERS)) }),
    result: (data) => data.assessDevice.deviceAssessment,
    response: DEVICE_BODY,
  },
  {
    method: 'GET',
    path: '/intelligence/device/:id',
    summary: 'Get a device assessment (assessment id, or dfp_ device id for its latest)',
    operation: /* GraphQL */ `
      query DeviceAssessment($id: ID!) {
        deviceAssessment(id: $id) {
          ...DeviceAssessmentFields
        }
      }
      ${DEVICE_ASSESSMENT}
    `,
    variables: ({ params }) => ({ id: params.id }),
    response: DEVICE_BODY,
    notFound: 'Device assessment',
  },
];
