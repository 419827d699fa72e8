import { createHash, randomBytes } from 'node:crypto';
import { findOneBy } from '../../../../platform/db/find-one-by.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { grants, keyPermission, PERMISSIONS } from '../../../../platform/auth/permissions.js';
import type { Environment, Principal } from '../../../../platform/auth/principal.js';
import type { Tenant } from '../../../../platform/auth/tenant.js';
import { Organization } from '../../../../platform/auth/organization.entity.js';
import { mintSessionToken } from '../../../../platform/auth/session-token.js';
import { resolveTarget } from '../../../../platform/delivery/target.js';
import { sqlOf } from '../../../../platform/db/transaction.js';
import { FLOW_PATH } from '../../../../platform/http/flow-links.js';
import { conflict, forbidden, invalid, notFound } from '../../../../platform/errors.js';
import { paginate, type Connection, type ConnectionArgs } from '../../../../platform/graphql/connection.js';
import { isUuid } from '../../../../platform/ids.js';
import type { ErasedUser, PersonalDataHolder } from '../../../../platform/privacy/personal-data.js';
import type { IdentityTier } from '../identity/identity.entity.js';
import { IdentityService } from '../identity/identity.service.js';
import { VerificationFlow } from './flow.entity.js';
import { flowSnapshot, recordFlowEvent } from './flow.events.js';
import { FLOW_LIFECYCLE } from './flow.lifecycle.js';
import {
  FLOW_LOCALES,
  FLOW_READ_SCOPE,
  FLOW_STEPS,
  flowState,
  HEX_COLOUR,
  STEP_SCOPE,
  stepState,
  TIER_STEPS,
  type FlowBranding,
  type FlowState,
  type FlowStep,
  type FlowStepState,
} from './flow.steps.js';

export const DEFAULT_FLOW_MINUTES = 30;
export const MIN_FLOW_MINUTES = 5;
export const MAX_FLOW_MINUTES = 24 * 60;
const MAX_EMBED_ORIGINS = 10;

export interface CreateFlowCommand {
  userId: string;
  steps?: FlowStep[] | null;
  tier?: IdentityTier | null;
  locale?: string | null;
  redirectUrl: string;
  branding?: FlowBranding | null;
  embedOrigins?: string[] | null;
  expiresInMinutes?: number | null;
}

export interface FlowDeps {
  /** The gateway as people's browsers reach it. */
  baseUrl: () => string;
  internalSecret: string;
  /** Logo URLs are checked like webhook URLs (private targets as for webhooks). */
  allowPrivateTargets: boolean;
}

/** What the page gets when it opens its link: the session it acts with, and what to show. */
export interface OpenedFlow {
  sessionToken: string;
  expiresAt: Date;
  flow: {
    id: string;
    userId: string;
    organizationName: string;
    steps: FlowStep[];
    locale: string;
    redirectUrl: string;
    branding: FlowBranding | null;
    expiresAt: Date;
  };
}

const hashLink = (token: string) => createHash('sha256').update(token).digest('hex');

/** Browsers let a page use the camera on https, or on this machine (a secure context). */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function originOf(value: string): string | null {
  try {
    const url = new URL(value);
    const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname));
    return secure && url.origin === value.replace(/\/$/, '') ? url.origin : null;
  } catch {
    return null;
  }
}

function httpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Hosted verification flows: an API key creates one for a user and some steps; the page opens its
 * one-use link and gets a session token of that user with only the scopes its steps need.
 */
export class FlowService implements PersonalDataHolder {
  constructor(
    private readonly em: EntityManager,
    private readonly tenant: Tenant,
    private readonly deps: FlowDeps,
  ) {}

  async create(principal: Principal, cmd: CreateFlowCommand, now = new Date()): Promise<{ flow: VerificationFlow; url: string }> {
    if (principal.kind !== 'client' || !principal.clientId) throw forbidden('Only an API key can create verification flows');
    const errors: string[] = [];
    const userId = cmd.userId.trim();
    if (!userId) errors.push('userId must not be empty');
    if (cmd.userId.length > 255) errors.push('userId must be at most 255 characters');
    if ((cmd.steps == null) === (cmd.tier == null)) errors.push('give either steps or tier');
    const steps = cmd.tier ? TIER_STEPS[cmd.tier] : FLOW_STEPS.filter((s) => cmd.steps?.includes(s));
    if (cmd.steps && !cmd.steps.length) errors.push('steps must name at least one step');
    const locale = cmd.locale ?? 'en';
    if (!(FLOW_LOCALES as readonly string[]).includes(locale)) errors.push(`locale must be one of: ${FLOW_LOCALES.join(', ')}`);
    const redirect = httpUrl(cmd.redirectUrl);
    if (!redirect) errors.push('redirectUrl must be an absolute http(s) URL');
    const minutes = cmd.expiresInMinutes ?? DEFAULT_FLOW_MINUTES;
    if (!Number.isInteger(minutes) || minutes < MIN_FLOW_MINUTES || minutes > MAX_FLOW_MINUTES) {
      errors.push(`expiresInMinutes must be an integer from ${MIN_FLOW_MINUTES} to ${MAX_FLOW_MINUTES}`);
    }
    const embedOrigins = [...new Set(cmd.embedOrigins ?? [])];
    if (embedOrigins.length > MAX_EMBED_ORIGINS) errors.push(`embedOrigins may name at most ${MAX_EMBED_ORIGINS} origins`);
    const badOrigins = embedOrigins.filter((o) => !originOf(o));
    if (badOrigins.length) {
      errors.push(`embedOrigins must be https origins (http only for localhost), without a path: not ${badOrigins.join(', ')}`);
    }
    const branding = cmd.branding ?? null;
    for (const field of ['primaryColor', 'accentColor'] as const) {
      const colour = branding?.[field];
      if (colour != null && !HEX_COLOUR.test(colour)) errors.push(`branding.${field} must be a colour as #rrggbb`);
    }
    const logo = branding?.logoUrl;
    if (logo != null) {
      const url = httpUrl(logo);
      if (url?.protocol !== 'https:') errors.push('branding.logoUrl must be an HTTPS URL');
      else await resolveTarget(url.href, this.deps.allowPrivateTargets, 'branding.logoUrl').catch((e: Error) => errors.push(e.message));
    }
    // the key hands the page only what it holds itself
    const needed = [...steps.map((s) => STEP_SCOPE[s]), ...(cmd.tier ? ['identity:write'] : [])];
    const missing = needed.filter(
      (p) => principal.service === null || !PERMISSIONS[principal.service].includes(keyPermission(p)) || !grants(principal.permissions, p),
    );
    if (missing.length) throw forbidden(`This key may not create this flow: it needs ${missing.map(keyPermission).join(', ')}`);
    if (errors.length) throw invalid(errors);

    const identity = cmd.tier ? (await new IdentityService(this.em, this.tenant).create(userId, cmd.tier)).verification : null;
    const token = randomBytes(32).toString('base64url');
    const flow = await this.em.transactional(async (em) => {
      const created = FLOW_LIFECYCLE.fire(null, 'created');
      const row = em.create(VerificationFlow, {
        ...this.tenant,
        clientId: principal.clientId!,
        userId,
        steps,
        tier: cmd.tier ?? null,
        identityVerificationId: identity?.id ?? null,
        locale,
        redirectUrl: redirect!.href,
        branding: branding && {
          logoUrl: logo ?? null,
          primaryColor: branding.primaryColor ?? null,
          accentColor: branding.accentColor ?? null,
        },
        embedOrigins: embedOrigins.map((o) => originOf(o)!),
        linkHash: hashLink(token),
        status: created.status,
        expiresAt: new Date(now.getTime() + minutes * 60_000),
      });
      await em.flush();
      recordFlowEvent(em, created.event, row);
      return row;
    });
    return { flow, url: `${this.deps.baseUrl()}${FLOW_PATH}/${token}` };
  }

  find(id: string): Promise<VerificationFlow | null> {
    return isUuid(id) ? findOneBy(this.em, VerificationFlow, { id, ...this.tenant }) : Promise.resolve(null);
  }

  list(filter: { userId?: string | null }, page: ConnectionArgs): Promise<Connection<VerificationFlow>> {
    // last: a session's user wins over the filter's
    return paginate(this.em, VerificationFlow, { ...(filter.userId != null && { userId: filter.userId }), ...this.tenant }, page);
  }

  /** Each step's newest check since the flow began, read in one statement (the flow may be an event's snapshot: no tenant columns). */
  async steps(flow: Pick<VerificationFlow, 'userId' | 'createdAt' | 'steps'>): Promise<FlowStepState[]> {
    const newest = (table: string, kind = '') => `(select id, status from verification.${table}
        where organization_id = $1 and environment = $2 and user_id = $3 and created_at >= $4 ${kind}
        order by created_at desc limit 1)`;
    const { rows } = await sqlOf(this.em).query<{ step: FlowStep; id: string; status: string }>(
      `select 'DOCUMENT' as step, * from ${newest('document_verifications')} d
       union all select 'LIVENESS', * from ${newest('liveness_sessions')} l
       union all select 'PHONE', * from ${newest('otp_verifications', "and kind = 'phone'")} p
       union all select 'EMAIL', * from ${newest('otp_verifications', "and kind = 'email'")} e
       union all select 'ADDRESS', * from ${newest('address_verifications')} a`,
      [this.tenant.organizationId, this.tenant.environment, flow.userId, flow.createdAt],
    );
    return flow.steps.map((step) =>
      stepState(
        step,
        rows.find((r) => r.step === step),
      ),
    );
  }

  async state(
    flow: Pick<VerificationFlow, 'userId' | 'createdAt' | 'steps' | 'status' | 'expiresAt'>,
    steps?: FlowStepState[],
  ): Promise<FlowState> {
    return flowState(flow.status, steps ?? (await this.steps(flow)), flow.expiresAt);
  }

  async exportUser(userId: string): Promise<unknown[]> {
    const all = await this.em.find(VerificationFlow, { userId, ...this.tenant }, { orderBy: { createdAt: 'asc', id: 'asc' } });
    return all.map(flowSnapshot);
  }

  /** The user's flows stay (when and what was asked), under the pseudonym; their links stop working. */
  async eraseUser(user: ErasedUser): Promise<number> {
    const { rowCount } = await sqlOf(this.em).query(
      `update verification.verification_flows set user_id = $4, expires_at = least(expires_at, now())
        where organization_id = $1 and environment = $2 and user_id = $3`,
      [this.tenant.organizationId, this.tenant.environment, user.userId, user.pseudonym],
    );
    return rowCount ?? 0;
  }
}

/** A link's flow before it is opened: nobody's tenant yet (the link is the credential). */
function linkedFlow(em: EntityManager, token: string): Promise<VerificationFlow | null> {
  return /^[A-Za-z0-9_-]{43}$/.test(token) ? em.findOne(VerificationFlow, { linkHash: hashLink(token) }) : Promise.resolve(null);
}

/**
 * Opens a flow's link, once: the page gets a session token of the flow's user with its steps'
 * scopes until the flow expires. A second open is refused (the page keeps its session across
 * reloads), so a link forwarded or leaked after the person started is worth nothing.
 */
export async function openFlow(
  em: EntityManager,
  token: string,
  deps: Pick<FlowDeps, 'internalSecret'>,
  now = new Date(),
): Promise<OpenedFlow> {
  const found = await linkedFlow(em, token);
  if (!found) throw notFound('Verification flow link', token.slice(0, 8));
  if (found.expiresAt <= now) throw conflict('This link has expired: ask for a new one');
  if (!FLOW_LIFECYCLE.allows(found.status, 'opened')) throw conflict('This link was already opened: ask for a new one');
  const opened = FLOW_LIFECYCLE.fire(found.status, 'opened');
  const flow = await em.transactional(async (tx) => {
    // one open wins a race between two tabs
    const claimed = await tx.nativeUpdate(
      VerificationFlow,
      { id: found.id, status: { $in: FLOW_LIFECYCLE.sources('opened') } },
      { status: opened.status, openedAt: now },
    );
    if (!claimed) throw conflict('This link was already opened: ask for a new one');
    const row = await tx.findOneOrFail(VerificationFlow, { id: found.id }, { refresh: true });
    recordFlowEvent(tx, opened.event, row);
    return row;
  });
  const organization = await em.findOne(Organization, { id: flow.organizationId });
  const exp = Math.floor(flow.expiresAt.getTime() / 1000);
  const sessionToken = mintSessionToken(
    {
      clientId: flow.clientId,
      organizationId: flow.organizationId,
      environment: flow.environment as Environment,
      userId: flow.userId,
      scopes: [...flow.steps.map((s) => STEP_SCOPE[s]), FLOW_READ_SCOPE],
      exp,
    },
    deps.internalSecret,
  );
  return {
    sessionToken,
    expiresAt: flow.expiresAt,
    flow: {
      id: flow.id,
      userId: flow.userId,
      organizationName: organization?.name ?? '',
      steps: flow.steps,
      locale: flow.locale,
      redirectUrl: flow.redirectUrl,
      branding: flow.branding ?? null,
      expiresAt: flow.expiresAt,
    },
  };
}

/** The origins that may frame a link's page (none for an unknown or expired link). */
export async function embedOriginsOf(em: EntityManager, token: string, now = new Date()): Promise<string[]> {
  const flow = await linkedFlow(em, token);
  return flow && flow.expiresAt > now ? flow.embedOrigins : [];
}
