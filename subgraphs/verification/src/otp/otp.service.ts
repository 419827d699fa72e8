import { randomUUID } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, conflict, rateLimited } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { isUuid } from '../../../../platform/ids.js';
import { tenantColumns, type Tenant } from '../../../../platform/auth/tenant.js';
import { OTP_ADDRESS_SCOPE, OtpVerification } from './otp.entity.js';
import type { Keyring } from '../../../../platform/crypto/keyring.js';
import { OTP_LIFECYCLES, type OtpKind, type OtpStatus, type OtpTrigger } from './otp.lifecycle.js';
import { recordOtpEvent } from './otp.events.js';
import { otpRecord } from './otp.record.js';
import { sqlOf } from '../../../../platform/db/transaction.js';
import type { ErasedUser, PersonalDataHolder } from '../../../../platform/privacy/personal-data.js';
import { coolDownLeft, hashCode, judge, newCode, newLinkToken, nonceMatches, readLinkToken, retryAfterSeconds } from './otp.js';
import type { NotifyChannel, OtpSender } from './notify-client.js';

/** How long a code lives, how many tries it gets, and how often codes may be sent (per kind). */
export interface OtpPolicy {
  ttlSeconds: number;
  maxAttempts: number;
  /** A resend waits this long after the previous send */
  resendCoolDownSeconds: number;
  /** Codes per address per hour, and per organization per hour (SMS pumping) */
  perAddressPerHour: number;
  perOrganizationPerHour: number;
}

export interface OtpDeps {
  /** Keys the code hashes and link signatures (the internal secret) */
  secret: string;
  sender: OtpSender;
  policy: Record<OtpKind, OtpPolicy>;
  /** Where magic links point: this base + `/v1/verifications/email/magic-link?token=…` */
  linkBaseUrl: string;
  /** The approved WhatsApp template (and its language) codes are sent with */
  whatsapp: { template: string; language: string };
  /** Addresses are sealed; the send limits count them by blind index */
  keyring: Keyring;
}

export interface StartCommand {
  userId: string;
  /** E.164 number or email address, already checked */
  address: string;
  channel: NotifyChannel;
  locale?: string;
  method?: 'OTP' | 'MAGIC_LINK';
  redirectUrl?: string | null;
  country?: string | null;
  lineType?: string | null;
  disposable?: boolean | null;
}

const HOUR = 3600;
const notFoundIn = (kind: OtpKind, id: string) => new AppError('NOT_FOUND', `id: ${kind} verification ${id} not found`);

type CodeTemplate = { name: string; content: Record<string, Record<string, string | string[]>> };

/**
 * What a code message says on each channel, as a notify template created on first use; `{{code}}`
 * and `{{minutes}}` come from the send's data. One template per channel (a tenant's SMS template
 * predates the others); the WhatsApp one is named after the approved template it uses, so a new
 * OTP_WHATSAPP_TEMPLATE takes effect at once.
 */
export function codeTemplate(channel: NotifyChannel, whatsapp: OtpDeps['whatsapp']): CodeTemplate {
  switch (channel) {
    case 'SMS':
      return {
        name: 'verification-phone-code',
        content: { sms: { body: 'Your verification code is {{code}}. It expires in {{minutes}} minutes. Never share it.' } },
      };
    case 'VOICE':
      return {
        name: 'verification-phone-voice-code',
        content: { voice: { text: 'Hello. Your verification code is {{code}}. Again, your code is {{code}}. Never share it.' } },
      };
    case 'WHATSAPP':
      return {
        name: `verification-phone-whatsapp-${whatsapp.template}.${whatsapp.language}`,
        content: { whatsapp: { template: whatsapp.template, language: whatsapp.language, parameters: ['{{code}}'] } },
      };
    case 'EMAIL':
      return {
        name: 'verification-email-code',
        content: {
          email: {
            subject: 'Your verification code',
            html: '<p>Your verification code is <strong>{{code}}</strong>. It expires in {{minutes}} minutes.</p>{{#if link}}<p>Or <a href="{{link}}">confirm your address with one click</a>.</p>{{/if}}<p>If you did not ask for it, ignore this message.</p>',
          },
        },
      };
  }
}

export class OtpService implements PersonalDataHolder {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly kind: OtpKind,
    private readonly deps: OtpDeps,
  ) {}

  private get lifecycle() {
    return OTP_LIFECYCLES[this.kind];
  }

  private get policy(): OtpPolicy {
    return this.deps.policy[this.kind];
  }

  /** A new PENDING verification whose code is sent at once (429 over a send limit, 503 when notify cannot take it). */
  async start(cmd: StartCommand): Promise<OtpVerification> {
    await this.checkSendLimits(cmd.address);
    return this.em.transactional(async (em) => {
      const { status, event } = this.lifecycle.fire(null, 'created');
      const now = new Date();
      const id = randomUUID();
      const code = newCode(this.tenant.environment);
      const link = cmd.method === 'MAGIC_LINK' ? newLinkToken(this.deps.secret, id) : null;
      const v = em.create(OtpVerification, {
        id,
        ...tenantColumns(this.tenant),
        kind: this.kind,
        userId: cmd.userId,
        address: cmd.address,
        channel: cmd.channel,
        method: cmd.method ?? 'OTP',
        locale: cmd.locale ?? 'en',
        redirectUrl: cmd.redirectUrl ?? null,
        country: cmd.country ?? null,
        lineType: cmd.lineType ?? null,
        disposable: cmd.disposable ?? null,
        status,
        codeHash: hashCode(this.deps.secret, id, code),
        linkNonceHash: link?.nonceHash ?? null,
        attemptsRemaining: this.policy.maxAttempts,
        lastSentAt: now,
        expiresAt: new Date(now.getTime() + this.policy.ttlSeconds * 1000),
        createdAt: now,
        updatedAt: now,
      });
      recordOtpEvent(em, event, v);
      await em.flush();
      // sent inside the transaction: a verification exists only if notify took its code
      v.notificationId = await this.sendCode(v, code, link?.token ?? null);
      return v;
    });
  }

  /** A fresh code for a PENDING verification (the old one stops working), after the cool-down; the window restarts. */
  async resend(id: string): Promise<OtpVerification> {
    const current = await this.find(id);
    if (!current) throw notFoundIn(this.kind, id);
    const wait = coolDownLeft(current.lastSentAt, this.policy.resendCoolDownSeconds);
    if (current.status === 'PENDING' && wait > 0) throw rateLimited(wait);
    if (!current.address) throw conflict(`The user of ${this.kind} verification ${id} was erased; start a new verification`);
    await this.checkSendLimits(current.address);
    return this.apply(id, async (v) => {
      const code = newCode(this.tenant.environment);
      const link = v.method === 'MAGIC_LINK' ? newLinkToken(this.deps.secret, v.id) : null;
      const now = new Date();
      Object.assign(v, {
        codeHash: hashCode(this.deps.secret, v.id, code),
        linkNonceHash: link?.nonceHash ?? null,
        attemptsRemaining: this.policy.maxAttempts,
        sends: v.sends + 1,
        lastSentAt: now,
        expiresAt: new Date(now.getTime() + this.policy.ttlSeconds * 1000),
      });
      v.notificationId = await this.sendCode(v, code, link?.token ?? null);
      return 'resent';
    });
  }

  /**
   * One code for a PENDING verification: a match verifies it; a miss spends an attempt and the last
   * miss fails it. Once it is over (or expired), codes are refused (409) and nothing changes.
   */
  verify(id: string, code: string): Promise<OtpVerification> {
    return this.apply(id, async (v) => {
      const j = judge(this.deps.secret, v, code);
      v.attemptsRemaining = j.attemptsRemaining;
      if (j.outcome === 'verified') {
        v.verifiedAt = new Date();
        return 'code.matched';
      }
      if (j.outcome === 'expired') {
        v.failureReason = 'EXPIRED';
        return 'expired';
      }
      if (j.outcome === 'failed') {
        v.failureReason = 'MAX_ATTEMPTS_EXCEEDED';
        return 'attempts.exhausted';
      }
      return 'code.wrong';
    });
  }

  /** A magic link's token (single use): verifies its email verification and returns it with the URL to redirect to. */
  async verifyLink(token: string): Promise<OtpVerification> {
    const read = readLinkToken(this.deps.secret, token);
    if (!read) throw new AppError('NOT_FOUND', 'token: this link is not valid');
    return this.apply(read.verificationId, async (v) => {
      if (!nonceMatches(v.linkNonceHash, read.nonceHash)) throw conflict('token: this link was already used or replaced by a newer one');
      v.linkNonceHash = null;
      if (v.expiresAt <= new Date()) {
        v.failureReason = 'EXPIRED';
        return 'expired';
      }
      v.verifiedAt = new Date();
      return 'code.matched';
    });
  }

  async exportUser(userId: string): Promise<unknown[]> {
    const all = await this.em.find(
      OtpVerification,
      { userId, kind: this.kind, ...this.tenant },
      { orderBy: { createdAt: 'asc', id: 'asc' } },
    );
    return all.map((v) => JSON.parse(JSON.stringify(otpRecord(v))) as unknown);
  }

  /** The numbers or addresses the user had verified, and the notifications that carried their codes (for notify's erasure). */
  async contactsOf(userId: string): Promise<{ addresses: string[]; notificationIds: string[] }> {
    // whole records: the address is sealed, opened as the entity loads
    const all = await this.em.find(OtpVerification, { userId, kind: this.kind, ...this.tenant });
    const present = (values: Array<string | null | undefined>) => [...new Set(values.filter((v): v is string => Boolean(v)))];
    return { addresses: present(all.map((v) => v.address)), notificationIds: present(all.map((v) => v.notificationId)) };
  }

  /**
   * The number or address goes (and a magic link's redirect); the outcome stays. A code not yet
   * entered stops working now.
   */
  async eraseUser({ userId, pseudonym }: ErasedUser): Promise<number> {
    const { rows } = await sqlOf(this.em).query(
      `update verification.otp_verifications set user_id = $5, address_plaintext = null, address_sealed = null, address_index = null, redirect_url = null, expires_at = least(expires_at, now())
        where organization_id = $1 and environment = $2 and kind = $3 and user_id = $4 returning 1`,
      [this.tenant.organizationId, this.tenant.environment, this.kind, userId, pseudonym],
    );
    return rows.length;
  }

  /** The caller's verification of this kind with this id, or null. */
  find(id: string): Promise<OtpVerification | null> {
    return isUuid(id) ? this.em.findOne(OtpVerification, { id, kind: this.kind, ...this.tenant }) : Promise.resolve(null);
  }

  /** The organization's verifications of this kind (of one user, in one status), newest first. */
  list(filter: { userId?: string | null; status?: OtpStatus | null }, page: ConnectionArgs): Promise<Connection<OtpVerification>> {
    return paginate(
      this.em,
      OtpVerification,
      {
        kind: this.kind,
        ...(filter.userId != null && { userId: filter.userId }),
        ...(filter.status != null && { status: filter.status }),
        ...this.tenant,
      },
      page,
    );
  }

  /** 429 with Retry-After when this address, or this organization, had too many codes in the last hour. */
  private async checkSendLimits(address: string): Promise<void> {
    const since = new Date(Date.now() - HOUR * 1000);
    // addresses are sealed: counted by their blind index
    const addressIndex = await this.deps.keyring.blindIndex(OTP_ADDRESS_SCOPE, address);
    const [perAddress] = await this.em.execute<Array<{ count: string; oldest: Date | null }>>(
      `select count(*) as count, min(last_sent_at) as oldest from verification.otp_verifications
        where kind = ? and address_index = ? and environment = ? and last_sent_at > ?`,
      [this.kind, addressIndex, this.tenant.environment, since],
    );
    const [perOrganization] = await this.em.execute<Array<{ count: string; oldest: Date | null }>>(
      `select count(*) as count, min(last_sent_at) as oldest from verification.otp_verifications
        where organization_id = ? and environment = ? and last_sent_at > ?`,
      [this.tenant.organizationId, this.tenant.environment, since],
    );
    const wait = Math.max(
      retryAfterSeconds(
        { count: Number(perAddress.count), oldest: perAddress.oldest && new Date(perAddress.oldest) },
        this.policy.perAddressPerHour,
        HOUR,
      ),
      retryAfterSeconds(
        { count: Number(perOrganization.count), oldest: perOrganization.oldest && new Date(perOrganization.oldest) },
        this.policy.perOrganizationPerHour,
        HOUR,
      ),
    );
    if (wait > 0) throw rateLimited(wait);
  }

  private sendCode(v: OtpVerification, code: string, linkToken: string | null): Promise<string> {
    const template = codeTemplate(v.channel as NotifyChannel, this.deps.whatsapp);
    const link = linkToken ? `${this.deps.linkBaseUrl}/v1/verifications/email/magic-link?token=${encodeURIComponent(linkToken)}` : null;
    return this.deps.sender.send({
      tenant: this.tenant,
      channel: v.channel as NotifyChannel,
      to: v.address!,
      template: template.name,
      content: template.content,
      data: { code, minutes: Math.round(this.policy.ttlSeconds / 60), ...(link && { link }) },
      // one notification per send of this verification, however often the call is repeated
      idempotencyKey: `otp-${v.id}-${v.sends}`,
    });
  }

  /** Every change: lock, check it is PENDING (409 otherwise), change, move by the lifecycle table, record the event — one transaction. */
  private apply(id: string, change: (v: OtpVerification) => Promise<OtpTrigger>): Promise<OtpVerification> {
    if (!isUuid(id)) return Promise.reject(notFoundIn(this.kind, id));
    return this.em.transactional(async (em) => {
      const v = await em.findOne(
        OtpVerification,
        { id, kind: this.kind, ...this.tenant },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!v) throw notFoundIn(this.kind, id);
      if (v.status !== 'PENDING') throw conflict(`id: this ${this.kind} verification is over (${v.status}); start a new one`);
      const trigger = await change(v);
      const { status, event } = this.lifecycle.fire(v.status, trigger);
      v.status = status;
      await em.flush();
      recordOtpEvent(em, event, v);
      return v;
    });
  }
}

/**
 * Expires every overdue PENDING verification, a batch at a time (`skip locked`: every process sweeps
 * side by side, and a verification a request holds is left to it). Returns how many expired.
 */
export async function expireOverdueOtps(em: EntityManager, batch = 100): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await em.fork().transactional(async (tx) => {
      const rows = await tx.execute<Array<{ id: string }>>(
        `select id from verification.otp_verifications
          where status = 'PENDING' and expires_at <= now()
          order by expires_at limit ${batch} for update skip locked`,
      );
      const found = rows.length ? await tx.find(OtpVerification, { id: { $in: rows.map((r) => r.id) } }) : [];
      for (const v of found) {
        const { status, event } = OTP_LIFECYCLES[v.kind].fire(v.status, 'expired');
        Object.assign(v, { status, failureReason: 'EXPIRED' });
        await tx.flush();
        recordOtpEvent(tx, event, v);
      }
      return found.length;
    });
    total += expired;
    if (expired < batch) return total;
  }
}
