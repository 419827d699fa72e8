import type { NotifyCapability } from '../notify.shared.js';
import { SandboxResolver } from './sandbox.resolver.js';

/** The channels' providers (sandbox, SMTP, Africa's Talking, FCM, Web Push, WhatsApp) and the sandbox's messages. */
export const channelsCapability: NotifyCapability = { name: 'channels', resolvers: [SandboxResolver] };
