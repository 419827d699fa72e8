import type { Keyring } from '../../../../platform/crypto/keyring.js';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { badInput, notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import type { PushTarget, WebPushSubscription } from '../channels/channel.js';
import { tenantColumns, type Tenant } from '../../../../platform/auth/tenant.js';
import { Recipient } from './recipient.entity.js';
import type { Sql } from '../../../../platform/db/transaction.js';
import { isE164, isEmail } from './recipient.address.js';

export interface RecipientCommand {
  email?: string | null;
  phone?: string | null;
  pushTokens?: string[] | null;
  webPushSubscriptions?: WebPushSubscription[] | null;
  locale?: string | null;
}

/** Where a notification `to` goes on each channel. */
export interface Addressing {
  /** Set when `to` named a recipient profile. */
  recipientId: string | null;
  email: string | null;
  phone: string | null;
  pushTargets: PushTarget[];
}

const MAX_DEVICES = 20;
const LOCALE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

const decodedLength = (value: string) => (/^[A-Za-z0-9_-]+=*$/.test(value) ? Buffer.from(value, 'base64url').length : -1);

/** `to` that is an email address or an E.164 number is used as it is, on its channel. */
export function directAddressing(to: string): Addressing | null {
  if (isEmail(to)) return { recipientId: null, email: to, phone: null, pushTargets: [] };
  if (isE164(to)) return { recipientId: null, email: null, phone: to, pushTargets: [] };
  return null;
}

export function addressingOf(r: Pick<Recipient, 'id' | 'email' | 'phone' | 'pushTokens' | 'webPushSubscriptions'>): Addressing {
  return {
    recipientId: r.id,
    email: r.email ?? null,
    phone: r.phone ?? null,
    pushTargets: [
      ...r.pushTokens.map((token): PushTarget => ({ type: 'fcm', token })),
      ...r.webPushSubscriptions.map((subscription): PushTarget => ({ type: 'webpush', subscription })),
    ],
  };
}

/** Erasure: the recipient profile whose id is the user's goes; returns the addresses it held (messages sent to them go too). */
export async function eraseRecipient(
  db: Sql,
  keyring: Keyring,
  tenant: Tenant,
  userId: string,
): Promise<{ erased: number; addresses: string[] }> {
  const { rows } = await db.query<{ email: string | null; phone: string | null }>(
    `delete from notify.recipients where organization_id = $1 and environment = $2 and id = $3 returning email_sealed as email, phone_sealed as phone`,
    [tenant.organizationId, tenant.environment, userId],
  );
  // the addresses are sealed (platform/crypto): opened to find what was sent to them
  const sealed = rows.flatMap((r) => [r.email, r.phone]).filter((a): a is string => Boolean(a));
  const addresses = await Promise.all(sealed.map((s) => keyring.openJson<string>(tenant.organizationId, s)));
  return { erased: rows.length, addresses };
}

export class RecipientService {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
  ) {}

  /** Creates the profile or updates the fields given (null clears one). Invalid values are a 400 listing each. */
  async upsert(id: string, cmd: RecipientCommand): Promise<Recipient> {
    const errors = validate(id, cmd);
    if (errors.length) throw badInput(errors);
    try {
      return await this.save(id, cmd);
    } catch (err) {
      // a concurrent first save of the same id won: update the profile it created
      if (!(err instanceof UniqueConstraintViolationException)) throw err;
      this.em.clear();
      return this.save(id, cmd);
    }
  }

  private async save(id: string, cmd: RecipientCommand): Promise<Recipient> {
    const existing = await this.em.findOne(Recipient, { ...this.tenant, id });
    const recipient = existing ?? this.em.create(Recipient, { ...tenantColumns(this.tenant), id });
    if (cmd.email !== undefined) recipient.email = cmd.email;
    if (cmd.phone !== undefined) recipient.phone = cmd.phone;
    if (cmd.pushTokens !== undefined) recipient.pushTokens = [...new Set(cmd.pushTokens ?? [])];
    if (cmd.webPushSubscriptions !== undefined) {
      recipient.webPushSubscriptions = (cmd.webPushSubscriptions ?? []).map((s) => ({
        endpoint: s.endpoint,
        keys: { p256dh: s.keys.p256dh, auth: s.keys.auth },
      }));
    }
    if (cmd.locale !== undefined) recipient.locale = cmd.locale;
    await this.em.flush();
    return recipient;
  }

  /** The caller's profile with this id, or null. */
  find(id: string): Promise<Recipient | null> {
    return this.em.findOne(Recipient, { ...this.tenant, id });
  }

  /** The caller's profiles with these ids (those that exist, in no particular order). */
  findByIds(ids: readonly string[]): Promise<Recipient[]> {
    return ids.length ? this.em.find(Recipient, { ...this.tenant, id: { $in: [...ids] } }) : Promise.resolve([]);
  }

  async delete(id: string): Promise<void> {
    const deleted = await this.em.nativeDelete(Recipient, { ...this.tenant, id });
    if (!deleted) throw notFound('Recipient', id);
  }

  /** The caller's profiles, newest first. */
  list(page: ConnectionArgs): Promise<Connection<Recipient>> {
    return paginate(this.em, Recipient, { ...this.tenant }, page);
  }

  /**
   * Addressing of each `to`: email addresses and E.164 numbers as they are, other values as
   * recipient ids (one query for all). Unknown ids are missing from the map.
   */
  async resolve(tos: readonly string[]): Promise<Map<string, Addressing>> {
    const result = new Map<string, Addressing>();
    const ids: string[] = [];
    for (const to of new Set(tos)) {
      const direct = directAddressing(to);
      if (direct) result.set(to, direct);
      else ids.push(to);
    }
    if (ids.length) {
      // through the entity: e-mail addresses and phone numbers are sealed, the subscriber opens them
      const found = await this.em.find(Recipient, { ...tenantColumns(this.tenant), id: { $in: ids } });
      for (const r of found) result.set(r.id, addressingOf(r));
    }
    return result;
  }
}

function validate(id: string, cmd: RecipientCommand): string[] {
  const errors: string[] = [];
  if (!id.trim() || id.length > 200) errors.push('id must be 1-200 characters');
  else if (directAddressing(id)) errors.push('id must not be an email address or a phone number (those are sent to directly)');
  if (cmd.email != null && !isEmail(cmd.email)) errors.push('email must be a valid email address');
  if (cmd.phone != null && !isE164(cmd.phone)) errors.push('phone must be an E.164 number, e.g. +254712345678');
  if (cmd.pushTokens != null) {
    if (cmd.pushTokens.length > MAX_DEVICES) errors.push(`pushTokens must have at most ${MAX_DEVICES} tokens`);
    if (cmd.pushTokens.some((t) => !t.trim() || t.length > 4096))
      errors.push('pushTokens must be non-empty tokens of at most 4096 characters');
  }
  if (cmd.webPushSubscriptions != null) {
    if (cmd.webPushSubscriptions.length > MAX_DEVICES) errors.push(`webPushSubscriptions must have at most ${MAX_DEVICES} subscriptions`);
    cmd.webPushSubscriptions.forEach((s, i) => {
      let url: URL | null = null;
      try {
        url = new URL(s.endpoint);
      } catch {
        // reported below
      }
      if (url?.protocol !== 'https:') errors.push(`webPushSubscriptions[${i}].endpoint must be an HTTPS URL`);
      if (decodedLength(s.keys.p256dh) !== 65)
        errors.push(`webPushSubscriptions[${i}].keys.p256dh must be a base64url P-256 public key (65 bytes)`);
      if (decodedLength(s.keys.auth) !== 16) errors.push(`webPushSubscriptions[${i}].keys.auth must be a base64url secret of 16 bytes`);
    });
  }
  if (cmd.locale != null && !LOCALE.test(cmd.locale)) errors.push('locale must be a BCP 47 tag, e.g. en-KE');
  return errors;
}
