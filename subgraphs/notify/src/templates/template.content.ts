import type { Channel } from '../channels/channel.js';

/** A template's content per channel (spec: email subject + html; sms body; push title + body). */
export interface TemplateContent {
  email?: { subject: string; html: string };
  sms?: { body: string };
  push?: { title: string; body: string };
}

/** The fields of each channel, and whether their placeholders are HTML-escaped. */
export const CHANNEL_FIELDS: Record<Channel, ReadonlyArray<{ field: string; escape: boolean; max: number }>> = {
  email: [
    { field: 'subject', escape: false, max: 998 },
    { field: 'html', escape: true, max: 256 * 1024 },
  ],
  sms: [{ field: 'body', escape: false, max: 1600 }],
  push: [
    { field: 'title', escape: false, max: 200 },
    { field: 'body', escape: false, max: 4000 },
  ],
};

export const channelsOf = (content: TemplateContent): Channel[] => (['email', 'sms', 'push'] as const).filter((c) => content[c]);

export const fieldText = (content: TemplateContent, channel: Channel, field: string): string =>
  (content[channel] as Record<string, string> | undefined)?.[field] ?? '';
