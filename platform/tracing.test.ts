import { Writable } from 'node:stream';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { createLogger } from './logger.js';
import { currentTraceparent, inSpan, operationLabel, samplerFrom, startTracing, tracingRequested } from './tracing.js';

describe('tracing', () => {
  it('is off unless the OTEL_* variables ask for it', () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(false);
    expect(tracingRequested({ OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'otlp' })).toBe(false);
    expect(startTracing({ serviceName: 'x', env: {} })).toBeNull();
  });

  it('samples as OTEL_TRACES_SAMPLER says, and refuses a sampler it does not know', () => {
    expect(samplerFrom({}).toString()).toMatch(/ParentBased/);
    expect(samplerFrom({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }).toString()).toMatch(/0\.25/);
    expect(samplerFrom({ OTEL_TRACES_SAMPLER: 'always_off' }).toString()).toMatch(/AlwaysOff/);
    expect(() => samplerFrom({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER sometimes/);
  });

  it('names a GraphQL request by its operation, a planner’s fetch by the client’s', () => {
    expect(operationLabel({ query: 'mutation CreateDocumentVerification($input: X!) { a }' })).toBe('mutation CreateDocumentVerification');
    expect(operationLabel({ query: '{ a }' })).toBe('query');
    expect(operationLabel({ query: 'query Q__verification__0 { a }' })).toBe('query Q');
    expect(operationLabel({ query: 'query A { a } query B { b }', operationName: 'B' })).toBe('query B');
    expect(operationLabel(undefined)).toBe('query');
  });

  it('puts the trace and span ids in every log line written inside a span', async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = startTracing({ serviceName: 'unit', exporter });
    const lines: string[] = [];
    const logger = createLogger(
      'unit',
      'info',
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    try {
      const traceparent = await inSpan('work', {}, async () => {
        logger.info('inside');
        return currentTraceparent();
      });
      logger.info('outside');
      const [inside, outside] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const [, traceId, spanId] = traceparent!.split('-');
      expect(inside).toMatchObject({ msg: 'inside', traceId, spanId });
      expect(outside.traceId).toBeUndefined();
      expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['work']);
    } finally {
      await tracing?.stop();
    }
    expect(currentTraceparent()).toBeNull();
  });
});
