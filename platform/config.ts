import { z } from 'zod';

const masterKeyFormat = (v: string) =>
  /^[0-9a-fA-F]{64}$/.test(v.trim()) || (/^[A-Za-z0-9+/]{43}=$/.test(v.trim()) && Buffer.from(v.trim(), 'base64').length === 32);

const natsUrl = (v: string) => {
  try {
    const url = new URL(v.trim());
    return ['nats:', 'tls:'].includes(url.protocol) && url.hostname !== '' && (url.pathname === '' || url.pathname === '/');
  } catch {
    return false;
  }
};

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const secondsList = z
  .string()
  .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, 'comma-separated seconds, e.g. 60,300,1800')
  .transform((v) => v.split(',').map(Number));

/** Every setting comes from the environment, validated at start (zero config works). */
export const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  /** Default: `pretty` (coloured lines) when stdout is a terminal outside production, else `json` (platform/logger.ts). */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),
  DATABASE_URL: z.url().optional(),
  EMBEDDED_PG_DIR: z.string().optional(),
  EMBEDDED_PG_PORT: port(5433),
  ADMIN_SECRET: z.string().min(16, 'ADMIN_SECRET must have at least 16 characters').optional(),
  INTERNAL_SECRET: z.string().min(16, 'INTERNAL_SECRET must have at least 16 characters').optional(),
  HOST: z.string().default('0.0.0.0'),
  /**
   * Envelope encryption (platform/crypto): the master key that wraps every organization's data
   * key, 32 bytes in base64 or hex. Required in production; elsewhere a key is generated once and
   * kept in ENCRYPTION_MASTER_KEY_FILE (beside the embedded database's data by default).
   */
  ENCRYPTION_MASTER_KEY: z
    .string()
    .refine((v) => masterKeyFormat(v), 'ENCRYPTION_MASTER_KEY must be 32 bytes in base64 (44 characters) or hex (64 characters)')
    .optional(),
  /** Master keys a rotation is moving away from: still unwrap, never wrap (comma-separated). */
  ENCRYPTION_PREVIOUS_MASTER_KEYS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean),
    )
    .refine((keys) => keys.every(masterKeyFormat), 'ENCRYPTION_PREVIOUS_MASTER_KEYS must list keys of 32 bytes in base64 or hex')
    .optional(),
  ENCRYPTION_MASTER_KEY_FILE: z.string().optional(),
  /** Bearer token of every service's `/metrics`; unset, `/metrics` is closed (403). */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must have at least 16 characters').optional(),
  /** Peers whose X-Forwarded-For the gateway believes: proxy-addr names (loopback, uniquelocal…), addresses, CIDRs. */
  TRUSTED_PROXIES: z
    .string()
    .default('loopback')
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  /** Subgraphs answer only the gateway: loopback unless they run on other machines. */
  SUBGRAPH_HOST: z.string().default('127.0.0.1'),
  GATEWAY_PORT: port(4000),
  VERIFICATION_PORT: port(4001),
  RISK_PORT: port(4002),
  NOTIFY_PORT: port(4003),
  REST_PORT: port(8080),
  GATEWAY_URL: z.url().default('http://localhost:4000/graphql'),
  VERIFICATION_URL: z.url().optional(),
  RISK_URL: z.url().optional(),
  NOTIFY_URL: z.url().optional(),
  DEFAULT_RATE_LIMIT: z.coerce.number().int().positive().default(1000),
  ORGANIZATION_RATE_LIMIT: z.coerce.number().int().positive().default(1000),
  // how often each gateway shares its in-memory rate-limit counts through PostgreSQL
  RATE_LIMIT_SYNC_MS: z.coerce.number().int().min(10).default(100),
  // npm start: every service on one event loop (single) or each in a worker thread of its own (threads)
  STACK_LAYOUT: z.enum(['single', 'threads']).default('single'),
  // npm start (single layout): the risk service in a child process of its own, or on the API's event loop
  RISK_PROCESS: z.enum(['child', 'inline']).default('child'),
  // that child's V8 heap limit (MB): its tenants' graphs, the rules, the screening index
  RISK_HEAP_MB: z.coerce.number().int().min(256).max(65_536).default(768),
  // npm start with STACK_LAYOUT=threads: gateway (+ REST adapter) threads sharing the gateway's and REST ports
  GATEWAY_THREADS: z.coerce.number().int().min(1).max(64).default(1),
  // a REST adapter started beside the gateway runs its operations in-process (false: over loopback HTTP)
  REST_IN_PROCESS: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((v) => v !== 'false' && v !== '0'),
  // identical subgraph queries in flight for the same caller share one call (false: every request calls)
  GATEWAY_SHARE_QUERIES: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((v) => v !== 'false' && v !== '0'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  WEBHOOK_RETRY_DELAYS: secondsList.default([60, 300, 1800]),
  // on first start, import the sanctions lists and IP feeds shipped in data/ (test stacks turn it off)
  DEFAULT_SCREENING_DATA: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((v) => v !== 'false' && v !== '0'),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: bool,
  WEBHOOK_CA_FILE: z.string().optional(),
  JOBS_SUPERVISE_SECONDS: z.coerce.number().int().min(1).default(60),
  // how often an idle job worker asks for work; a job committed by this process wakes its worker at once
  JOB_POLL_SECONDS: z.coerce.number().min(0.5).max(300).default(5),
  OUTBOX_POLL_MS: z.coerce.number().int().positive().default(5_000),
  /** Empty or `postgres`: LISTEN/NOTIFY. `nats://host:port[,nats://…]`: NATS JetStream (platform/events/nats-bus.ts). */
  EVENT_BUS: z
    .string()
    .optional()
    .transform((v) => (!v || v.trim() === '' || v.trim() === 'postgres' ? undefined : v.trim()))
    .refine(
      (v) => v === undefined || v.split(',').every(natsUrl),
      'EVENT_BUS must be `postgres` or NATS server URLs (nats://host:port, comma-separated)',
    ),
  OUTBOX_RETENTION_HOURS: z.coerce.number().positive().default(168),
  // watchlist monitoring: every ACTIVE subscription is re-screened this often (and on every new list snapshot)
  WATCHLIST_SCAN_INTERVAL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 365)
    .default(24),
  WATCHLIST_POLL_SECONDS: z.coerce.number().positive().max(3_600).default(60),
  WATCHLIST_MATCH_THRESHOLD: z.coerce.number().min(0.5).max(1).default(0.85),
  // files (documents, selfies): a folder of this machine (shared by every verification instance)
  STORAGE_DIR: z.string().default('.data/files'),
  // face and document models: worker threads (each holds the models, ≈ 150 MB) and one analysis's budget
  VISION_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  VISION_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(60_000),
  VISION_IDLE_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(120_000),
  // a process idle this long after work compacts its heap once (0: never)
  IDLE_COMPACTION_SECONDS: z.coerce.number().int().min(0).max(86_400).default(30),
  // address verification (Form B): a document URL is downloaded within this time (and 10 MB), private targets as for webhooks
  ADDRESS_FETCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(15_000),
  // liveness: a session admits photos this long (the spec: 10 minutes); overdue ones are expired by a sweep this often
  LIVENESS_SESSION_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  LIVENESS_SWEEP_MS: z.coerce.number().int().min(50).max(3_600_000).default(5_000),
  // phone and email verification codes (the spec: phone 10 minutes; email 15 minutes; 3 attempts each)
  PHONE_OTP_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  EMAIL_OTP_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
  OTP_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  OTP_RESEND_COOLDOWN_SECONDS: z.coerce.number().int().min(0).max(3_600).default(30),
  OTP_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).max(1_000).default(5),
  OTP_PER_ORGANIZATION_PER_HOUR: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  OTP_SWEEP_MS: z.coerce.number().int().min(50).max(3_600_000).default(5_000),
  // the approved WhatsApp authentication template codes are sent with (its one body parameter is the code)
  OTP_WHATSAPP_TEMPLATE: z
    .string()
    .regex(/^[a-z0-9_]{1,60}$/)
    .default('verification_code'),
  OTP_WHATSAPP_LANGUAGE: z
    .string()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/)
    .default('en'),
  /** Where magic links point (the REST adapter as the public reaches it): `<base>/v1/verifications/email/magic-link?token=…` */
  MAGIC_LINK_BASE_URL: z.url().default('http://localhost:8080'),
  /** Where hosted flow links point (the gateway as people's browsers reach it): `<base>/flow/<token>`; default the gateway's own origin */
  FLOW_BASE_URL: z.url().optional(),
  // identity verifications: how often each process looks for ones whose submissions changed unseen (a crash, a lost notice)
  IDENTITY_SWEEP_MS: z.coerce.number().int().min(50).max(3_600_000).default(30_000),
  // mobile money: one lookup's deadline at the operator (the request waits for it), and how often
  // each process settles lookups a crash interrupted (PENDING past twice the deadline → PROVIDER_ERROR)
  MOBILE_MONEY_TIMEOUT_MS: z.coerce.number().int().min(100).max(25_000).default(15_000),
  MOBILE_MONEY_SWEEP_MS: z.coerce.number().int().min(50).max(3_600_000).default(30_000),
  // privacy (issue 16): how often each service looks for erasure parts to do (besides every erasure event: retries,
  // notices missed), and how often it removes what is past its organization's retention periods
  PRIVACY_SWEEP_MS: z.coerce.number().int().min(50).max(3_600_000).default(30_000),
  RETENTION_SWEEP_MS: z.coerce.number().int().min(50).max(86_400_000).default(3_600_000),
  // MTN MoMo (Collection API) for live keys; unset: the sandbox answers for MTN_MOMO too
  MTN_MOMO_BASE_URL: z.url().optional(),
  MTN_MOMO_SUBSCRIPTION_KEY: z.string().min(1).optional(),
  MTN_MOMO_API_USER: z.string().min(1).optional(),
  MTN_MOMO_API_KEY: z.string().min(1).optional(),
  /** `X-Target-Environment`: one value (`sandbox`, `mtnghana`…) or one per country (`GH=mtnghana,UG=mtnuganda`). */
  MTN_MOMO_TARGET_ENVIRONMENT: z.string().min(1).default('sandbox'),
  MTN_MOMO_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(8_000),
  // business verification (KYB): the company registry live keys look up (test keys always use the
  // sandbox registry); a lookup that finds the registry unavailable is retried after each of these delays
  BUSINESS_REGISTRY: z.enum(['sandbox', 'opencorporates']).default('sandbox'),
  OPENCORPORATES_API_URL: z.url().default('https://api.opencorporates.com'),
  OPENCORPORATES_API_TOKEN: z.string().optional(),
  BUSINESS_REGISTRY_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  BUSINESS_REGISTRY_RETRY_DELAYS: secondsList.default([60, 300, 1800, 7200, 21600]),
  // risk: score thresholds of the actions (review ≤ score < block), graph detectors and queries
  RISK_REVIEW_THRESHOLD: z.coerce.number().min(0).max(100).default(50),
  RISK_BLOCK_THRESHOLD: z.coerce.number().min(0).max(100).default(80),
  RISK_CYCLE_WINDOW_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 90)
    .default(72),
  RISK_GRAPH_DEGREE_CAP: z.coerce.number().int().min(1).max(10_000).default(50),
  RISK_SANCTIONS_THRESHOLD: z.coerce.number().min(0.5).max(1).default(0.85),
  /** Where the other risk processes reach this one's evaluations (it owns some tenants' graphs); default its own address. */
  RISK_ADVERTISE_URL: z.url().optional(),
  /** Wall-clock budget of one evaluation's rules; a rule still running is stopped and reported. */
  RULE_TIME_BUDGET_MS: z.coerce.number().int().min(5).max(10_000).default(100),
  GRAPH_QUERY_TIMEOUT_MS: z.coerce.number().int().min(10).max(600_000).default(2_000),
  GRAPH_QUERY_MAX_ROWS: z.coerce.number().int().min(1).max(1_000_000).default(1_000),
  /** Connections graph queries may hold at once (a pool of their own: they cannot starve evaluations). */
  GRAPH_QUERY_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(2),
  GRAPH_QUERY_MAX_HOPS: z.coerce.number().int().min(1).max(20).default(6),
  // notify: live providers (test keys always use the sandbox; a live channel without a provider
  // falls back to the sandbox and says so in `provider`)
  NOTIFY_PUBLIC_URL: z.url().default('http://localhost:4003'),
  NOTIFY_RETRY_DELAYS: secondsList.default([10, 60, 300]),
  // a dispatch job's deliveries stay claimed this long (pg-boss expires the job after the same
  // time): how long a crashed worker's deliveries wait before another worker takes them again
  NOTIFY_CLAIM_LEASE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  EMAIL_FROM: z.string().min(3).default('Notifications <notifications@localhost>'),
  SMTP_URL: z.url().optional(),
  SMTP_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(5),
  SMS_API_URL: z.url().optional(),
  SMS_API_KEY: z.string().optional(),
  SMS_USERNAME: z.string().optional(),
  SMS_SENDER_ID: z.string().optional(),
  SMS_CALLBACK_TOKEN: z.string().optional(),
  FCM_SERVICE_ACCOUNT: z.string().optional(),
  FCM_API_URL: z.url().default('https://fcm.googleapis.com'),
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  VAPID_SUBJECT: z.string().default('mailto:notifications@localhost'),
  // notify WhatsApp (Business Cloud API) and voice (Africa's Talking): live when the token / key is set
  // how long the WhatsApp and voice APIs get to answer a request (then: a transient failure, retried)
  NOTIFY_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
  WHATSAPP_ACCESS_TOKEN: z.string().optional(),
  WHATSAPP_PHONE_NUMBER_ID: z.string().optional(),
  WHATSAPP_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/)
    .default('v21.0'),
  WHATSAPP_API_URL: z.url().default('https://graph.facebook.com'),
  VOICE_API_URL: z.url().default('https://voice.africastalking.com'),
  VOICE_API_KEY: z.string().optional(),
  VOICE_USERNAME: z.string().optional(),
  VOICE_CALLER_NUMBER: z.string().optional(),
  VOICE_CALLBACK_TOKEN: z.string().optional(),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n  ${lines.join('\n  ')}`);
  }
  return parsed.data;
}

/** One row of the environment's documentation: variables, their default where the schema's is not what a reader needs, and what they mean. */
interface EnvironmentRow {
  vars: Array<keyof typeof configSchema.shape>;
  /** As shown; computed from the schema's defaults when absent (— for none). */
  default?: string;
  meaning: string;
}

/**
 * What every variable of `configSchema` means, in the order docs/environment.md lists them
 * (`npm run docs:env` writes that file from here; a test fails when it is stale or a variable is
 * missing).
 */
export const ENVIRONMENT: EnvironmentRow[] = [
  { vars: ['DATABASE_URL'], default: 'embedded PostgreSQL', meaning: 'any PostgreSQL ≥ 15' },
  { vars: ['EMBEDDED_PG_DIR', 'EMBEDDED_PG_PORT'], default: '`.data/postgres`, 5433', meaning: "embedded server's data and port" },
  { vars: ['ADMIN_SECRET'], default: 'generated, printed once', meaning: '`X-Admin-Secret` for `/admin/api-clients` (≥ 16 chars)' },
  {
    vars: ['INTERNAL_SECRET'],
    default: 'generated by `npm start`',
    meaning: 'signs the principal the gateway forwards to subgraphs (≥ 16 chars; valid 30 s, for one subgraph and one request)',
  },
  {
    vars: ['ENCRYPTION_MASTER_KEY'],
    default: 'generated (not in production)',
    meaning: "master key wrapping every organization's data key (32 bytes, base64 or hex); required with `NODE_ENV=production`",
  },
  {
    vars: ['ENCRYPTION_PREVIOUS_MASTER_KEYS'],
    meaning: 'master keys a rotation moves away from (comma-separated): they still unwrap, never wrap',
  },
  {
    vars: ['ENCRYPTION_MASTER_KEY_FILE'],
    default: '`.data/master.key`',
    meaning: 'where the generated development master key is kept (beside `EMBEDDED_PG_DIR`)',
  },
  { vars: ['HOST'], meaning: 'listen address' },
  { vars: ['METRICS_TOKEN'], meaning: 'bearer token for `/metrics` on every service (≥ 16 chars); unset: `/metrics` answers 403' },
  {
    vars: ['TRUSTED_PROXIES'],
    default: 'loopback',
    meaning:
      'peers whose `X-Forwarded-For` the gateway and the REST adapter believe (names such as `loopback`, `uniquelocal`, addresses, CIDRs; comma-separated); anyone else is the client',
  },
  { vars: ['SUBGRAPH_HOST'], meaning: "subgraphs' listen address (only the gateway calls them)" },
  { vars: ['GATEWAY_PORT', 'VERIFICATION_PORT', 'RISK_PORT', 'NOTIFY_PORT', 'REST_PORT'], meaning: 'ports' },
  {
    vars: ['VERIFICATION_URL', 'RISK_URL', 'NOTIFY_URL'],
    default: 'from the supergraph',
    meaning: 'subgraph URLs for a standalone gateway; a verification process without notify sends codes to `NOTIFY_URL`',
  },
  { vars: ['GATEWAY_URL'], meaning: 'for a standalone REST adapter' },
  { vars: ['DEFAULT_RATE_LIMIT', 'ORGANIZATION_RATE_LIMIT'], meaning: 'requests per minute' },
  { vars: ['WEBHOOK_TIMEOUT_MS'], meaning: 'deadline of one delivery attempt, answer included' },
  { vars: ['WEBHOOK_RETRY_DELAYS'], meaning: 'seconds before each retry' },
  {
    vars: ['DEFAULT_SCREENING_DATA'],
    default: 'true',
    meaning:
      'on the first start of an empty database, import the sanctions lists and IP feeds shipped in `data/` (false: screening answers 503 until lists are imported)',
  },
  { vars: ['WEBHOOK_ALLOW_PRIVATE_TARGETS'], default: 'false', meaning: 'allow private/loopback callbacks (local use, tests)' },
  { vars: ['WEBHOOK_CA_FILE'], meaning: 'extra CA (PEM) trusted for callbacks' },
  { vars: ['JOBS_SUPERVISE_SECONDS'], meaning: 'pg-boss supervision (bounds crash recovery of deliveries)' },
  { vars: ['OUTBOX_POLL_MS'], meaning: 'outbox relay safety poll (it is woken by NOTIFY)' },
  {
    vars: ['EVENT_BUS'],
    default: 'postgres',
    meaning:
      '`postgres`: subscriptions and cache invalidations over LISTEN/NOTIFY; `nats://host:port` (comma-separated for a cluster): over NATS JetStream, published from the outbox, so that only one process listens on PostgreSQL (docs/operations.md)',
  },
  { vars: ['WATCHLIST_SCAN_INTERVAL_HOURS'], meaning: 'time between scheduled rescans of a subscription' },
  { vars: ['WATCHLIST_POLL_SECONDS'], meaning: 'how often each process looks for due subscriptions' },
  { vars: ['WATCHLIST_MATCH_THRESHOLD'], meaning: 'score that raises a watchlist alert' },
  { vars: ['STORAGE_DIR'], meaning: 'folder of uploaded files (document images, selfies), shared by every verification instance' },
  {
    vars: ['VISION_WORKERS'],
    meaning:
      'worker processes running the face models and all OCR (documents, machine-readable zones, proofs of address); each loads what it is asked to use (face models ≈ 300 MB)',
  },
  {
    vars: ['VISION_TIMEOUT_MS'],
    meaning:
      "one face analysis's or document reading's budget; past it the worker is replaced and the request fails with 503 (a check's job is retried)",
  },
  {
    vars: ['VISION_IDLE_MS'],
    meaning:
      'the vision worker processes (face models, OCR) stop after this long without work, and a worker’s OCR engines after this long without a reading (their memory goes back; the next check starts them again, a few seconds)',
  },
  {
    vars: ['JOB_POLL_SECONDS'],
    meaning:
      'how often an idle job worker (document, address, AML batch, business registry, notification dispatch) asks the database for work; a job this process commits wakes its worker at once, and notification dispatch also wakes at the next retry or claim end it knows of, so this bounds only retries and jobs queued elsewhere',
  },
  {
    vars: ['IDLE_COMPACTION_SECONDS'],
    meaning:
      'a process whose event loop has been idle this long after work runs one full, compacting collection of its heap (memory it grew under load goes back); 0 never',
  },
  { vars: ['LIVENESS_SESSION_SECONDS'], meaning: 'how long a liveness session admits photos (the spec: 10 minutes)' },
  {
    vars: ['LIVENESS_SWEEP_MS'],
    meaning: 'how often each verification process expires overdue liveness sessions (a session is at most this late)',
  },
  { vars: ['PHONE_OTP_SECONDS', 'EMAIL_OTP_SECONDS'], meaning: 'how long a phone / email verification code (and magic link) works' },
  { vars: ['OTP_MAX_ATTEMPTS'], meaning: 'wrong codes a verification takes before it fails' },
  { vars: ['OTP_RESEND_COOLDOWN_SECONDS'], meaning: 'how long a resend waits after the previous send' },
  {
    vars: ['OTP_PER_ADDRESS_PER_HOUR', 'OTP_PER_ORGANIZATION_PER_HOUR'],
    meaning: 'codes per number or address (across organizations) and per organization per hour; beyond, 429 with Retry-After',
  },
  { vars: ['OTP_SWEEP_MS'], meaning: 'how often each verification process expires overdue phone and email verifications' },
  {
    vars: ['OTP_WHATSAPP_TEMPLATE', 'OTP_WHATSAPP_LANGUAGE'],
    meaning: 'the approved WhatsApp authentication template (one body parameter: the code) phone codes are sent with, and its language',
  },
  {
    vars: ['MAGIC_LINK_BASE_URL'],
    meaning: "the REST adapter as users' browsers reach it: magic links point to `<base>/v1/verifications/email/magic-link`",
  },
  {
    vars: ['FLOW_BASE_URL'],
    meaning:
      "the gateway as users' browsers reach it: hosted verification flow links are `<base>/flow/<token>` (default: the origin of the gateway the stack runs, or of `GATEWAY_URL`)",
  },
  {
    vars: ['IDENTITY_SWEEP_MS'],
    meaning: 'how often each verification process looks for identity verifications whose submissions changed unseen (after a crash)',
  },
  {
    vars: ['ADDRESS_FETCH_TIMEOUT_MS'],
    meaning: 'the whole download of an address document given by URL (Form B); private targets as `WEBHOOK_ALLOW_PRIVATE_TARGETS`',
  },
  {
    vars: ['MOBILE_MONEY_TIMEOUT_MS'],
    meaning: "one mobile money lookup's deadline at the operator (the request waits for it); past it the verification is `PROVIDER_ERROR`",
  },
  {
    vars: ['MOBILE_MONEY_SWEEP_MS'],
    meaning:
      'how often each verification process settles lookups a crash interrupted (`PENDING` past twice the deadline → `PROVIDER_ERROR`)',
  },
  {
    vars: ['MTN_MOMO_BASE_URL', 'MTN_MOMO_SUBSCRIPTION_KEY'],
    default: '— (sandbox)',
    meaning:
      "MTN MoMo Collection API for live `MTN_MOMO` verifications (e.g. `https://proxy.momoapi.mtn.com`), the Collection product's key",
  },
  {
    vars: ['MTN_MOMO_API_USER', 'MTN_MOMO_API_KEY'],
    meaning: 'the API user (a UUID) and its API key: Basic credentials of the token endpoint',
  },
  {
    vars: ['MTN_MOMO_TARGET_ENVIRONMENT'],
    meaning: '`X-Target-Environment`: one value (`mtnghana`…) or one per country (`GH=mtnghana,UG=mtnuganda`)',
  },
  { vars: ['MTN_MOMO_TIMEOUT_MS'], meaning: 'deadline of each MTN MoMo HTTP request' },
  { vars: ['OUTBOX_RETENTION_HOURS'], meaning: 'relayed outbox events older than this are deleted' },
  {
    vars: ['PRIVACY_SWEEP_MS'],
    meaning: 'how often each service looks for erasure parts to do besides every erasure event (retries, events missed while down)',
  },
  {
    vars: ['RETENTION_SWEEP_MS'],
    meaning: "how often each service removes what is past its organization's retention periods (and once at start)",
  },
  { vars: ['RISK_REVIEW_THRESHOLD', 'RISK_BLOCK_THRESHOLD'], meaning: 'risk score bands (review must be below block)' },
  {
    vars: ['RULE_TIME_BUDGET_MS'],
    meaning: "time one evaluation's rules may take; the rule still running is stopped and reported in `ruleErrors`",
  },
  { vars: ['RISK_CYCLE_WINDOW_HOURS', 'RISK_GRAPH_DEGREE_CAP'], meaning: "graph detectors' window and edges expanded per node" },
  { vars: ['RISK_SANCTIONS_THRESHOLD'], meaning: 'sanctions layer match threshold' },
  {
    vars: ['RISK_ADVERTISE_URL'],
    meaning:
      'the URL at which the other risk processes reach this one (they forward evaluations of the tenants whose graph it holds); default its own GraphQL address, right when all run on one host',
  },
  { vars: ['GRAPH_QUERY_POOL_SIZE'], meaning: 'database connections graph queries may hold at once (their own pool)' },
  { vars: ['GRAPH_QUERY_TIMEOUT_MS', 'GRAPH_QUERY_MAX_ROWS', 'GRAPH_QUERY_MAX_HOPS'], meaning: 'graph query limits' },
  {
    vars: ['BUSINESS_REGISTRY'],
    meaning: 'the company registry live keys use: `sandbox` or `opencorporates` (test keys always use the sandbox)',
  },
  {
    vars: ['OPENCORPORATES_API_URL', 'OPENCORPORATES_API_TOKEN'],
    meaning: 'OpenCorporates’ API address (https://api.opencorporates.com) and the token sent as `api_token`',
  },
  {
    vars: ['BUSINESS_REGISTRY_TIMEOUT_MS'],
    meaning: 'one registry lookup’s budget (past it the registry is unavailable and the lookup is retried)',
  },
  {
    vars: ['BUSINESS_REGISTRY_RETRY_DELAYS'],
    meaning: 'seconds before each retry of a lookup that found the registry unavailable; after the last a reviewer decides',
  },
  {
    vars: ['RATE_LIMIT_SYNC_MS'],
    meaning:
      'how often each gateway adds its in-memory rate-limit counts to the shared ones in PostgreSQL and learns the others\' (the tolerance of "Getting a key")',
  },
  {
    vars: ['STACK_LAYOUT'],
    meaning:
      '`npm start`: everything on one event loop (`single`), or each subgraph in a worker thread and the gateway with the REST adapter in `GATEWAY_THREADS` threads (`threads`)',
  },
  {
    vars: ['RISK_PROCESS'],
    meaning:
      '`npm start` (single layout): the risk service in a child process of its own, restarted if it dies (`child`), or on the same event loop as the rest (`inline`)',
  },
  {
    vars: ['RISK_HEAP_MB'],
    meaning:
      "`npm start`: the risk child process's V8 heap limit in MB — the graphs of the tenants it owns (one with 1M transfers in its windows and 100,000 accounts holds ≈ 250 MB), the rules, the screening index; raise it for bigger tenants (each full collection of such a heap pauses evaluations for ≈ 0.5 s on 2 busy cores, BENCHMARKS.md)",
  },
  {
    vars: ['GATEWAY_THREADS'],
    meaning: "`npm start` with `threads`: gateway (+ REST adapter) threads sharing the gateway's and the REST port (SO_REUSEPORT)",
  },
  {
    vars: ['REST_IN_PROCESS'],
    default: 'true',
    meaning:
      'a REST adapter started beside the gateway runs its operations in-process (same authentication, limits and errors); `false`: over loopback HTTP, as a separate adapter does',
  },
  {
    vars: ['GATEWAY_SHARE_QUERIES'],
    default: 'true',
    meaning:
      'identical subgraph queries in flight for the same caller share one call (see "How the stack scales"); `false`: every request makes its own calls',
  },
  { vars: ['NODE_ENV'], meaning: '`production` turns introspection off' },
  { vars: ['LOG_LEVEL'], default: 'info', meaning: 'pino level' },
  {
    vars: ['LOG_FORMAT'],
    default: 'pretty on a terminal, else json',
    meaning: '`pretty`: coloured lines for a person; `json`: one JSON object per line (the default when piped or in production)',
  },
  { vars: ['NOTIFY_PUBLIC_URL'], meaning: 'public origin of the notify service (tracking pixel URLs)' },
  { vars: ['NOTIFY_RETRY_DELAYS'], meaning: 'seconds before each retry of a transient provider error' },
  {
    vars: ['NOTIFY_CLAIM_LEASE_SECONDS'],
    meaning:
      "how long the deliveries a dispatch worker claimed (up to 100) stay claimed: after a crash, the dead worker's deliveries are sent again by another worker once it has passed; keep it above the time sending 100 takes",
  },
  { vars: ['SMTP_URL', 'SMTP_POOL_SIZE', 'EMAIL_FROM'], meaning: 'live email (`smtp://user:pass@host:587`, `smtps://…`)' },
  {
    vars: ['SMS_API_URL', 'SMS_API_KEY', 'SMS_USERNAME', 'SMS_SENDER_ID'],
    meaning: 'live SMS: `https://api.africastalking.com` (or `https://api.sandbox.africastalking.com`), key, username, sender id',
  },
  {
    vars: ['SMS_CALLBACK_TOKEN'],
    meaning: 'delivery reports must carry it (`?token=` or `X-Callback-Token`); unset: reports are refused (403)',
  },
  { vars: ['FCM_SERVICE_ACCOUNT', 'FCM_API_URL'], meaning: 'live push with FCM: the service-account key JSON (or its file path)' },
  { vars: ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY', 'VAPID_SUBJECT'], meaning: 'live Web Push (`npx web-push generate-vapid-keys`)' },
  {
    vars: ['WHATSAPP_ACCESS_TOKEN', 'WHATSAPP_PHONE_NUMBER_ID'],
    meaning: "live WhatsApp (Business Cloud API): a system user's access token and the sending phone number's id",
  },
  { vars: ['WHATSAPP_API_VERSION', 'WHATSAPP_API_URL'], meaning: 'Graph API version and base URL' },
  {
    vars: ['VOICE_API_KEY', 'VOICE_USERNAME', 'VOICE_CALLER_NUMBER'],
    meaning: "live voice calls (Africa's Talking): key, username, the virtual number calls come from (E.164)",
  },
  { vars: ['VOICE_API_URL'], meaning: "`https://voice.sandbox.africastalking.com` for Africa's Talking's own sandbox" },
  {
    vars: ['VOICE_CALLBACK_TOKEN'],
    meaning: 'voice callbacks must carry it (`?token=` or `X-Callback-Token`); unset: refused (403), so no call can say anything',
  },
  {
    vars: ['NOTIFY_PROVIDER_TIMEOUT_MS'],
    meaning: 'how long the WhatsApp and voice APIs get to answer (then a transient failure, retried)',
  },
];
