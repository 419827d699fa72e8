import { context, propagation, SpanKind, SpanStatusCode, trace, type Context, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import type { RequestHandler } from 'express';
import pg from 'pg';

/**
 * OpenTelemetry traces, off unless the standard `OTEL_*` variables ask for them: one trace per
 * request from the edge (REST adapter or gateway) through the query plan's subgraph calls, their
 * database statements, the jobs they queue, and the outbox events' webhook deliveries. W3C
 * `traceparent` crosses every boundary: HTTP headers between services, a column of the outbox and
 * of deliveries, a field of each job's data. When off, every helper here costs a branch.
 */

const TRACER = 'afri-verify-platform';
let enabled = false;
let provider: TracerProvider | null = null;
let unpatch: (() => void) | null = null;

export interface TracingOptions {
  /** The process's service name (`OTEL_SERVICE_NAME` wins). */
  serviceName: string;
  env?: NodeJS.ProcessEnv;
  /** Tests: spans go here (SimpleSpanProcessor), whatever the environment says. */
  exporter?: SpanExporter;
}

/** Whether the environment asks for traces: an OTLP endpoint, or `OTEL_TRACES_EXPORTER` naming one (not `none`). */
export function tracingRequested(env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((e) => e.trim());
  if (exporters.includes('none')) return false;
  return (
    exporters.some((e) => e === 'otlp' || e === 'console') || !!env.OTEL_EXPORTER_OTLP_ENDPOINT || !!env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT
  );
}

/** `OTEL_TRACES_SAMPLER` / `OTEL_TRACES_SAMPLER_ARG` as the specification names them; default parent-based always-on. */
export function samplerFrom(env: NodeJS.ProcessEnv): Sampler {
  const ratio = Number(env.OTEL_TRACES_SAMPLER_ARG ?? 1);
  const root = new TraceIdRatioBasedSampler(Number.isFinite(ratio) ? Math.min(1, Math.max(0, ratio)) : 1);
  switch (env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on') {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return root;
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    default:
      throw new Error(`OTEL_TRACES_SAMPLER ${env.OTEL_TRACES_SAMPLER} is not one this service knows`);
  }
}

/**
 * Starts tracing for this process when the environment (or a test's exporter) asks for it; null
 * otherwise. Registers the context manager, the W3C propagator and the provider globally, and
 * traces every PostgreSQL statement made inside a span.
 */
export function startTracing(opts: TracingOptions): { stop(): Promise<void> } | null {
  const env = opts.env ?? process.env;
  if (enabled || (!opts.exporter && !tracingRequested(env))) return null;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? 'otlp').split(',').map((e) => e.trim());
  provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? opts.serviceName }),
    sampler: opts.exporter ? new AlwaysOnSampler() : samplerFrom(env),
    spanProcessors: opts.exporter
      ? [new SimpleSpanProcessor({ exporter: opts.exporter })]
      : exporters.flatMap((e): SpanProcessor[] =>
          e === 'otlp'
            ? [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })]
            : e === 'console'
              ? [new SimpleSpanProcessor({ exporter: new ConsoleSpanExporter() })]
              : [],
        ),
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  unpatch = traceDatabaseStatements();
  enabled = true;
  return {
    async stop() {
      const stopping = provider;
      unpatch?.();
      trace.disable();
      context.disable();
      propagation.disable();
      enabled = false;
      provider = null;
      await stopping?.shutdown();
    },
  };
}

const tracer = () => trace.getTracer(TRACER);

function ended<T>(span: Span, work: Promise<T>): Promise<T> {
  return work.then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
      span.end();
      throw error;
    },
  );
}

/** `work` inside a new span (a child of the active one, or of `parent`); ended when it settles. */
export function inSpan<T>(
  name: string,
  opts: { kind?: SpanKind; attributes?: Record<string, string | number | boolean>; parent?: Context },
  work: (span: Span | null) => Promise<T>,
): Promise<T> {
  if (!enabled) return work(null);
  const parent = opts.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes }, parent);
  return ended(
    span,
    context.with(trace.setSpan(parent, span), () => work(span)),
  );
}

/** The context a carrier (HTTP headers, a job's data) hands over: its `traceparent`, else the active one. */
export function contextFrom(carrier: Record<string, unknown> | null | undefined): Context {
  const traceparent = carrier?.traceparent;
  return enabled && typeof traceparent === 'string'
    ? propagation.extract(context.active(), { traceparent } as Record<string, string>, {
        get: (c, k) => c[k],
        keys: (c) => Object.keys(c),
      })
    : context.active();
}

/** Each traced request's context: a body parser's events (multipart) may run outside it. */
const requestContexts = new WeakMap<object, Context>();

/** The active span's (or `req`'s) `traceparent`, for a header, a column, a job's data; null when not tracing. */
export function currentTraceparent(req?: object): string | null {
  if (!enabled) return null;
  const carrier: Record<string, string> = {};
  propagation.inject((req && requestContexts.get(req)) ?? context.active(), carrier);
  return carrier.traceparent ?? null;
}

/** A span of the trace `traceparent` names (an event's relay), open until `end`; null when not tracing or untraced. */
export function relaySpan(event: string, traceparent: string | null): { traceparent: string | null; end(): void } | null {
  if (!enabled || !traceparent) return null;
  const span = tracer().startSpan(
    `outbox relay ${event}`,
    { kind: SpanKind.CONSUMER, attributes: { 'event.name': event } },
    contextFrom({ traceparent }),
  );
  const carrier: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), carrier);
  return { traceparent: carrier.traceparent ?? null, end: () => span.end() };
}

/** A job's data with the active trace in it, so its worker continues the trace. */
export function withTrace<T extends object>(data: T): T {
  const traceparent = currentTraceparent();
  return traceparent ? { ...data, traceparent } : data;
}

/** A job's work in a CONSUMER span of the trace its data carries (`withTrace`). */
export function inJobSpan<T>(queue: string, data: object | null | undefined, work: () => Promise<T>): Promise<T> {
  if (!enabled) return work();
  return inSpan(
    `job ${queue}`,
    { kind: SpanKind.CONSUMER, parent: contextFrom(data as Record<string, unknown>), attributes: { 'job.queue': queue } },
    work,
  );
}

/** Headers that carry the active span (or `req`'s, a traced request) to another service. */
export function traceHeaders(req?: object): Record<string, string> {
  const traceparent = currentTraceparent(req);
  return traceparent ? { traceparent } : {};
}

/** A request served by `component` (a SERVER span continuing the caller's `traceparent`); `nameOf` runs only when tracing. */
export function serveTraced<T>(
  component: string,
  nameOf: () => string,
  headers: Record<string, unknown>,
  work: () => Promise<T>,
): Promise<T> {
  if (!enabled) return work();
  return inSpan(`${component} ${nameOf()}`, { kind: SpanKind.SERVER, parent: contextFrom(headers), attributes: { component } }, work);
}

/**
 * Express: each request served in a SERVER span of `component`, named by its route once routed
 * (`rest POST /verifications/identity`), ended when the answer is sent.
 */
export function tracedRequests(component: string, nameOf?: (req: Parameters<RequestHandler>[0]) => string): RequestHandler {
  return (req, res, next) => {
    if (!enabled) return next();
    const span = tracer().startSpan(
      `${component} ${req.method}`,
      { kind: SpanKind.SERVER, attributes: { component, 'http.request.method': req.method } },
      contextFrom(req.headers),
    );
    res.on('close', () => {
      // a route served at several paths (with and without /v1) is named by its first
      const paths = (req.route as { path?: string | string[] } | undefined)?.path;
      const route = Array.isArray(paths) ? paths[0] : paths;
      span.updateName(`${component} ${nameOf?.(req) ?? `${req.method} ${route ? `${req.baseUrl}${route}` : req.baseUrl || req.path}`}`);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    const traced = trace.setSpan(context.active(), span);
    requestContexts.set(req, traced);
    context.with(traced, next);
  };
}

const OPERATION = /^\s*(query|mutation|subscription)\b\s*([_A-Za-z]\w*)?/;

/** A GraphQL request's span name: its operation's type and name (`mutation CreateDocumentVerification`). */
export function operationLabel(body: unknown): string {
  const { query, operationName } = (body ?? {}) as { query?: unknown; operationName?: unknown };
  const found = typeof query === 'string' ? OPERATION.exec(query) : null;
  // the query planner names a subgraph's fetch `<Operation>__<subgraph>__<n>`: the client's operation it serves
  const name = (typeof operationName === 'string' ? operationName : found?.[2])?.replace(/__\w+__\d+$/, '');
  return `${found?.[1] ?? 'query'}${name ? ` ${name}` : ''}`;
}

/** The ids a log line carries to find its trace. */
export function traceIds(): { traceId: string; spanId: string } | Record<string, never> {
  if (!enabled) return {};
  const span = trace.getActiveSpan()?.spanContext();
  return span ? { traceId: span.traceId, spanId: span.spanId } : {};
}

type Query = (this: pg.Client, ...args: unknown[]) => unknown;

/** Every statement a pg client sends inside a span becomes a CLIENT span (its text, never its values). */
function traceDatabaseStatements(): () => void {
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  proto.query = function (this: pg.Client, ...args: unknown[]) {
    const active = trace.getActiveSpan();
    const config = args[0] as string | { text?: string; submit?: unknown } | undefined;
    // a cursor or a stream (submittable) reports its own progress
    if (!active || (typeof config === 'object' && config && typeof config.submit === 'function')) return original.apply(this, args);
    const text = typeof config === 'string' ? config : (config?.text ?? '');
    const span = tracer().startSpan('pg.query', {
      kind: SpanKind.CLIENT,
      attributes: { 'db.system.name': 'postgresql', 'db.query.text': text.slice(0, 2000) },
    });
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (error: Error | null, result: unknown) => void;
      args[last] = (error: Error | null, result: unknown) => {
        if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
        span.end();
        callback(error, result);
      };
      return original.apply(this, args);
    }
    return ended(span, original.apply(this, args) as Promise<unknown>);
  };
  return () => {
    proto.query = original;
  };
}

export { SpanKind };
