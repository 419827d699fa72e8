import type { Request, RequestHandler, Response } from 'express';
import { counter, gauge, histogram, makeCounter, makeGauge, makeHistogram, secondsSince } from './metric.js';

/** Every service: its HTTP requests (GraphQL, REST, `/health`… alike). */
export const HTTP_METRICS = {
  duration: histogram('http_request_duration_seconds', 'HTTP requests served, by method and status, and how long they took', [
    'method',
    'status',
  ]),
  ready: gauge('service_ready', 'Whether the service can take traffic, as /ready answers it at scrape time (1 ready, 0 not)', []),
};

/** `service_ready`, asking the service's readiness check at each scrape (a failing check reads 0). */
export const readinessGauge = (ready: () => Promise<boolean>) =>
  makeGauge(HTTP_METRICS.ready, async (gauge) => gauge.set((await ready().catch(() => false)) ? 1 : 0));

/** The REST adapter: its requests by route template (RED per route). */
export const REST_METRICS = {
  requests: counter('rest_requests_total', 'REST requests answered, by route template, method and HTTP status', [
    'route',
    'method',
    'status',
  ]),
  duration: histogram('rest_request_duration_seconds', 'How long REST requests took to answer, by route template and method', [
    'route',
    'method',
  ]),
};

/** The label of a request no route of the table matched (404s of unknown paths): one value, whatever the path. */
export const UNMATCHED_ROUTE = '(unmatched)';

/**
 * The route template that answered (`/verifications/identity/:id`; a route served with and without
 * `/v1` is one template), never the path itself: the label's values are the route table's.
 */
export function routeTemplate(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  const first = Array.isArray(path) ? path[0] : path;
  return typeof first === 'string' ? first : UNMATCHED_ROUTE;
}

/** RED per route of an Express app: mount before the routes. */
export class RouteMetrics {
  readonly requests = makeCounter(REST_METRICS.requests);
  readonly duration = makeHistogram(REST_METRICS.duration);
  readonly metrics = [this.requests, this.duration];

  readonly middleware: RequestHandler = (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => this.observe(req, res, secondsSince(started)));
    next();
  };

  observe(req: Request, res: Response, seconds: number): void {
    const route = routeTemplate(req);
    this.requests.inc({ route, method: req.method, status: String(res.statusCode) });
    this.duration.observe({ route, method: req.method }, seconds);
  }
}
