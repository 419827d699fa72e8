import type { Express, Request, Response, NextFunction } from 'express';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { REQUEST_ID_HEADER, type Logger } from '../logger.js';
import { HTTP_METRICS, readinessGauge } from '../metrics/http.js';
import { makeHistogram, type Metric } from '../metrics/metric.js';

export interface ObservabilityOptions {
  service: string;
  logger: Logger;
  /** Resolves true when the service can take traffic (database reachable, schema loaded…). */
  ready: () => Promise<boolean>;
  /** `/metrics` answers only `Authorization: Bearer <metricsToken>`; without one it is closed. */
  metricsToken?: string;
  /** The service's own metrics beyond the HTTP histogram and prom-client's defaults (docs/metrics.md). */
  metrics?: readonly Metric[];
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** 401/403 unless the request carries the metrics token (compared in constant time). */
function metricsRefusal(req: Request, token: string | undefined): { status: number; message: string } | null {
  if (!token) return { status: 403, message: 'Metrics are closed: set METRICS_TOKEN and send it as a bearer token' };
  const given = req.headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token)) ? null : { status: 401, message: 'Send METRICS_TOKEN as a bearer token' };
}

/** Every service exposes `/health` (alive), `/ready` (can serve) and `/metrics` (Prometheus, behind METRICS_TOKEN), and names no framework. */
export function mountObservability(app: Express, opts: ObservabilityOptions): Registry {
  // an answer does not name the framework that served it
  app.disable('x-powered-by');
  const registry = new Registry();
  registry.setDefaultLabels({ service: opts.service });
  collectDefaultMetrics({ register: registry });
  const duration = makeHistogram(HTTP_METRICS.duration);
  for (const metric of [duration, readinessGauge(opts.ready), ...(opts.metrics ?? [])]) registry.registerMetric(metric);

  app.use((req: Request, res: Response, next: NextFunction) => {
    const id = (req.headers[REQUEST_ID_HEADER] as string | undefined) ?? randomUUID();
    req.headers[REQUEST_ID_HEADER] = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    const end = duration.startTimer({ method: req.method });
    res.on('finish', () => {
      end({ status: String(res.statusCode) });
      opts.logger.debug({ requestId: id, method: req.method, url: redactUrl(req.originalUrl), status: res.statusCode }, 'request');
    });
    next();
  });
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok', service: opts.service });
  });
  app.get('/ready', async (_req, res) => {
    const ok = await opts.ready().catch(() => false);
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'unavailable', service: opts.service });
  });
  app.get('/metrics', async (req, res) => {
    const refused = metricsRefusal(req, opts.metricsToken);
    if (refused) return void res.status(refused.status).json({ error: refused.message });
    res.setHeader('content-type', registry.contentType);
    res.send(await registry.metrics());
  });
  return registry;
}

/** Query parameters named for a credential: token, api_key, apiKey, access_token, client_secret, password, signature… */
const SECRET_PARAM = /token|key|secret|pass|auth|signature|credential/i;
/** Values shaped like the platform's own credentials (API keys, webhook secrets), whatever their parameter's name. */
const SECRET_VALUE = /^(?:(?:vk|nk|risk)_(?:live|test)_|whsec_)/;
const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** A URL as logs may show it: query values that are, or are named as, secrets blanked. */
export const redactUrl = (url: string): string =>
  url.replace(/([?&])([^=&#]*)=([^&#]*)/g, (param, sep: string, name: string, value: string) =>
    SECRET_PARAM.test(decoded(name)) || SECRET_VALUE.test(decoded(value)) ? `${sep}${name}=[redacted]` : param,
  );
