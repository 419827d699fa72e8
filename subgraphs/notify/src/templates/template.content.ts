import { CHANNELS, type Channel } from '../channels/channel.js';

/**
 * A template's content per channel (spec: email subject + html; sms body; push title + body; then
 * whatsapp: an approved WhatsApp template's name, language and body parameters; voice: the text a
 * call says).
 */
export interface TemplateContent {
  email?: { subject: string; html: string };
  sms?: { body: string };
  push?: { title: string; body: string };
  whatsapp?: { template: string; language: string; parameters: string[] };
  voice?: { text: string };
}

export interface FieldSpec {
  field: string;
  /** placeholders are HTML-escaped */
  escape: boolean;
  /** characters (of each item, for a list) */
  max: number;
  /** a list of texts, of at most this many items */
  list?: number;
  /** what the field must look like (literal, no placeholders) */
  pattern?: { re: RegExp; says: string };
}

/** The fields of each channel, and whether their placeholders are HTML-escaped. */
export const CHANNEL_FIELDS: Record<Channel, readonly FieldSpec[]> = {
  email: [
    { field: 'subject', escape: false, max: 998 },
    { field: 'html', escape: true, max: 256 * 1024 },
  ],
  sms: [{ field: 'body', escape: false, max: 1600 }],
  push: [
    { field: 'title', escape: false, max: 200 },
    { field: 'body', escape: false, max: 4000 },
  ],
  // WhatsApp's own limits: template names are lower case with underscores, languages like en or pt_BR
  whatsapp: [
    { field: 'template', escape: false, max: 512, pattern: { re: /^[a-z0-9_]+$/, says: 'lower-case letters, digits and _' } },
    { field: 'language', escape: false, max: 15, pattern: { re: /^[a-z]{2,3}(_[A-Z]{2})?$/, says: 'a language code such as en or pt_BR' } },
    { field: 'parameters', escape: false, max: 1024, list: 20 },
  ],
  voice: [{ field: 'text', escape: false, max: 2000 }],
};

/** One text of a template: `path` is `body`, or `parameters.0` for an item of a list. */
export interface ContentField {
  path: string;
  spec: FieldSpec;
  text: string;
}

/** Every text of a channel's content (lists expanded), in field order. */
export function contentFields(content: TemplateContent, channel: Channel): ContentField[] {
  const fields = content[channel] as Record<string, unknown> | undefined;
  return CHANNEL_FIELDS[channel].flatMap((spec): ContentField[] => {
    const value = fields?.[spec.field];
    if (!spec.list) return [{ path: spec.field, spec, text: typeof value === 'string' ? value : '' }];
    const items = Array.isArray(value) ? value : [];
    return items.map((item, i) => ({ path: `${spec.field}.${i}`, spec, text: typeof item === 'string' ? item : '' }));
  });
}

export const channelsOf = (content: TemplateContent): Channel[] => CHANNELS.filter((c) => content[c]);
