import type { Express, Request, Response, NextFunction } from 'express';
import { randomUUID } from 'node:crypto';
import { Registry, collectDefaultMetrics, Histogram } from 'prom-client';
import { REQUEST_ID_HEADER, type Logger } from '../logger.js';

export interface ObservabilityOptions {
  service: string;
  logger: Logger;
  /** Resolves true when the service can take traffic (database reachable, schema loaded…). */
  ready: () => Promise<boolean>;
}

/** Every service exposes `/health` (alive), `/ready` (can serve) and `/metrics` (Prometheus). */
export function mountObservability(app: Express, opts: ObservabilityOptions): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service: opts.service });
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'status'],
    registers: [registry],
  });

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
  app.get('/metrics', async (_req, res) => {
    res.setHeader('content-type', registry.contentType);
    res.send(await registry.metrics());
  });
  return registry;
}

/** A URL as logs may show it: secrets passed in the query string (`token`, `key`, `secret`) blanked. */
export const redactUrl = (url: string): string => url.replace(/([?&](?:token|key|secret|api_key)=)[^&#]*/gi, '$1[redacted]');
