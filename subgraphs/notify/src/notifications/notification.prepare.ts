import { randomUUID } from 'node:crypto';
import { uuidv7 } from './uuidv7.js';
import { CHANNELS, isChannel, PHONE_CHANNELS, type Channel } from '../channels/channel.js';
import type { ChannelProviders } from '../channels/registry.js';
import type { Addressing } from '../recipients/recipient.service.js';
import type { Template } from '../templates/template.entity.js';
import { lookup, placeholdersOfContent } from '../templates/template.render.js';
import type { NewDelivery, NewNotification } from './notification.store.js';
import { CHANNEL_LIFECYCLE } from './notification.lifecycle.js';

/** Template data must be a JSON object (any JSON reaches the service, which says so: 400). */
export const isDataObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `channels` of a send: a non-empty list of known channels (400 otherwise). */
export function validateChannels(channels: readonly string[], errors: string[]): Channel[] {
  if (!channels.length) errors.push(`channels must contain at least one of ${CHANNELS.join(', ')}`);
  const unknown = channels.filter((c) => !isChannel(c));
  if (unknown.length) errors.push(`channels must be among: ${CHANNELS.join(', ')} (unknown: ${unknown.join(', ')})`);
  if (new Set(channels).size !== channels.length) errors.push('channels must not repeat a channel');
  return channels.filter(isChannel);
}

/** The template must have content for every requested channel. */
export function checkTemplateChannels(template: Template, channels: readonly Channel[], errors: string[]): void {
  const missing = channels.filter((c) => !template.content[c]);
  if (missing.length) errors.push(`template "${template.name}" version ${template.version} has no ${missing.join(', ')} content`);
}

export type RequiredFields = ReadonlyArray<{ field: string; where: string }>;

export function requiredFields(template: Template, channels: readonly Channel[]): RequiredFields {
  return placeholdersOfContent(
    template.content,
    channels.filter((c) => template.content[c]),
  );
}

/** One message per missing placeholder value (null counts as missing; "" is a value). */
export function missingData(template: Template, required: RequiredFields, data: Record<string, unknown>, prefix: string): string[] {
  const errors: string[] = [];
  const reported = new Set<string>();
  for (const { field, where } of required) {
    if (reported.has(field) || lookup(data, field) != null) continue;
    reported.add(field);
    errors.push(`${prefix}.${field} is required by template "${template.name}" version ${template.version} (${where})`);
  }
  return errors;
}

const NO_ADDRESS: Record<Channel, string> = {
  email: 'the recipient has no email address',
  sms: 'the recipient has no phone number',
  push: 'the recipient has no push device (pushTokens or webPushSubscriptions)',
  whatsapp: 'the recipient has no phone number',
  voice: 'the recipient has no phone number',
};

/** The rows of one accepted notification: a delivery per channel, `undeliverable` when there is no address for it. */
export function buildNotification(
  to: string,
  addressing: Addressing,
  data: Record<string, unknown>,
  channels: readonly Channel[],
  environment: string,
  providers: ChannelProviders,
  batchSeq: number | null = null,
): NewNotification {
  const deliveries = channels.map((channel): NewDelivery => {
    const address = channel === 'email' ? addressing.email : PHONE_CHANNELS.includes(channel) ? addressing.phone : null;
    const pushTargets = channel === 'push' && addressing.pushTargets.length ? addressing.pushTargets : null;
    const reachable = address !== null || pushTargets !== null;
    return {
      id: uuidv7(),
      channel,
      status: CHANNEL_LIFECYCLE.target(reachable ? 'accepted' : 'accepted.unaddressable'),
      provider: providers.nameFor(environment, channel),
      address,
      pushTargets,
      // random (v4), unguessable: it is all the open pixel needs
      trackingToken: channel === 'email' && reachable ? randomUUID() : null,
      reason: reachable ? null : NO_ADDRESS[channel],
    };
  });
  return { id: uuidv7(), to, recipientId: addressing.recipientId, data, batchSeq, deliveries };
}
