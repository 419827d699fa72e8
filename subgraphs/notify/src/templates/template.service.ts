import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, notFound } from '../../../../platform/errors.js';
import type { Connection, ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { sqlOf } from '../../../../platform/db/transaction.js';
import { keysetConnection, type KeysetList } from '../../../../platform/graphql/keyset.js';
import { isUuid } from '../../../../platform/ids.js';
import type { Channel } from '../channels/channel.js';
import { tenantColumns, type Tenant } from '../../../../platform/auth/tenant.js';
import { Template } from './template.entity.js';
import { CHANNEL_FIELDS, channelsOf, contentFields, type TemplateContent } from './template.content.js';
import { parseField, placeholdersOfContent } from './template.render.js';

export const TEMPLATE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** A template version as the API shows it. */
export interface TemplateView {
  id: string;
  name: string;
  version: number;
  channels: Channel[];
  content: TemplateContent;
  placeholders: string[];
  createdAt: Date;
}

export function templateView(t: Template): TemplateView {
  const channels = channelsOf(t.content);
  return {
    id: t.id,
    name: t.name,
    version: t.version,
    channels,
    content: t.content,
    placeholders: [...new Set(placeholdersOfContent(t.content, channels).map((p) => p.field))],
    createdAt: t.createdAt,
  };
}

export class TemplateService {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
  ) {}

  /** Validates and stores the next version of `name` (1 for a new name). Invalid content is a 400 listing every problem. */
  async create(name: string, channels: TemplateContent): Promise<Template> {
    const errors: string[] = [];
    if (!TEMPLATE_NAME.test(name)) errors.push('name must be 1-100 letters, digits, _ . or -, starting with a letter or digit');
    const content: TemplateContent = {};
    const given = channelsOf(channels);
    if (!given.length) errors.push('channels must contain at least one of email, sms, push, whatsapp, voice');
    for (const channel of given) {
      const fields = channels[channel] as Record<string, unknown>;
      const texts = contentFields(channels, channel);
      const stored: Record<string, string | string[]> = {};
      for (const { field, list } of CHANNEL_FIELDS[channel]) {
        stored[field] = list ? [] : '';
        const value = fields[field] ?? stored[field];
        if (list && (!Array.isArray(value) || value.length > list))
          errors.push(`channels.${channel}.${field} must be a list of at most ${list} texts`);
      }
      for (const { path, spec, text } of texts) {
        const where = `channels.${channel}.${path}`;
        if (!text.trim()) errors.push(`${where} must not be empty`);
        else if (text.length > spec.max) errors.push(`${where} must be at most ${spec.max} characters`);
        else if (spec.pattern && !spec.pattern.re.test(text)) errors.push(`${where} must be ${spec.pattern.says}`);
        else {
          try {
            parseField(text);
          } catch (err) {
            errors.push(`${where} is not a valid template: ${(err as Error).message.split('\n')[0]}`);
          }
        }
        stored[spec.field] = spec.list ? [...(stored[spec.field] as string[]), text] : text;
      }
      (content as Record<string, unknown>)[channel] = stored;
    }
    if (errors.length) throw badInput(errors);

    return this.em.transactional(async (em) => {
      // versions of one name are numbered one after the other, also under concurrent saves
      await em.execute('select pg_advisory_xact_lock(hashtext(?))', [
        `notify.template:${this.tenant.organizationId}:${this.tenant.environment}:${name}`,
      ]);
      const [{ max }] = await em.execute<Array<{ max: number | null }>>(
        'select max(version) as max from notify.templates where organization_id = ? and environment = ? and name = ?',
        [this.tenant.organizationId, this.tenant.environment, name],
      );
      return em.create(Template, { ...tenantColumns(this.tenant), name, version: (max ?? 0) + 1, content });
    });
  }

  /** The named version, or the latest one; null when the name (or that version) does not exist. */
  find(name: string, version?: number | null): Promise<Template | null> {
    return this.em.findOne(Template, { ...this.tenant, name, ...(version != null ? { version } : {}) }, { orderBy: { version: 'desc' } });
  }

  /** The named version, or the latest one; 404 when the name (or that version) does not exist. */
  async get(name: string, version?: number | null): Promise<Template> {
    const found = await this.find(name, version);
    if (!found) throw notFound(version != null ? `Template ${name} version ${version}` : `Template ${name}`);
    return found;
  }

  /** The caller's template versions with these ids (those that exist, in no particular order). */
  findByIds(ids: readonly string[]): Promise<Template[]> {
    const valid = ids.filter(isUuid);
    return valid.length ? this.em.find(Template, { id: { $in: valid }, ...this.tenant }) : Promise.resolve([]);
  }

  /** Every version of a name, newest first (none: the name does not exist). */
  versions(name: string, page: ConnectionArgs): Promise<Connection<Template>> {
    return this.connection(
      {
        from: 'notify.templates t',
        where: ['t.organization_id = $1', 't.environment = $2', 't.name = $3'],
        values: [this.tenant.organizationId, this.tenant.environment, name],
        key: ['t.version'],
        descending: true,
        keyOf: (id) => `select o.version from notify.templates o where o.id = ${id}::uuid`,
        isId: isUuid,
        select: 't.id, t.created_at',
      },
      page,
    );
  }

  /** The latest version of every name, by name. */
  listLatest(page: ConnectionArgs): Promise<Connection<Template>> {
    return this.connection(
      {
        from: `(select distinct on (name) id, name, created_at from notify.templates
                 where organization_id = $1 and environment = $2 order by name, version desc) t`,
        where: [],
        values: [this.tenant.organizationId, this.tenant.environment],
        key: ['t.name'],
        descending: false,
        keyOf: (id) => `select o.name from notify.templates o where o.id = ${id}::uuid`,
        isId: isUuid,
        select: 't.id, t.created_at',
      },
      page,
    );
  }

  private connection(list: KeysetList, page: ConnectionArgs): Promise<Connection<Template>> {
    const sql = sqlOf(this.em);
    return keysetConnection<{ id: string; created_at: Date }, Template>(sql, list, page, async (rows) => {
      const byId = new Map((await this.findByIds(rows.map((r) => r.id))).map((t) => [t.id, t]));
      return rows.map((r) => byId.get(r.id)!);
    });
  }
}
