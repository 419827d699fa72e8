import type { IpDeps } from '../ip/ip.service.js';
import type { VerificationCapability } from '../verification.shared.js';
import { DeviceAssessment } from './device.entity.js';
import { DeviceResolver, DeviceUserFields } from './device.resolver.js';
import { DeviceService } from './device.service.js';

/** Device assessments (fingerprint, emulator, the IP's signals). */
export const deviceCapability: VerificationCapability<object, IpDeps> = {
  name: 'device',
  resolvers: [DeviceResolver, DeviceUserFields],
  entities: [DeviceAssessment],
  personalData: (em, tenant, deps) => ({
    deviceAssessments: new DeviceService(em, tenant, deps.ipIntelligence, deps.ipIntelligence.db),
  }),
};
