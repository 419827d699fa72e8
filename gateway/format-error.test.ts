import { buildSchema, GraphQLError } from 'graphql';
import { createLogger } from '../platform/logger.js';
import { createErrorFormatter } from './format-error.js';

const schema = buildSchema('enum IdentityTier { BASIC STANDARD ENHANCED } type Query { x: String }');
const format = createErrorFormatter({ logger: createLogger('format-error-test', 'silent'), schema: () => schema });

describe('createErrorFormatter', () => {
  describe('platform errors', () => {
    it('keeps the code, message, path and public extensions; drops the rest', () => {
      const formatted = format({
        message: 'Rate limit exceeded',
        path: ['identity'],
        extensions: { code: 'RATE_LIMITED', retryAfter: 30, messages: ['a'], serviceName: 'risk', stacktrace: ['at x'] },
      });
      expect(formatted).toEqual({
        message: 'Rate limit exceeded',
        path: ['identity'],
        extensions: { code: 'RATE_LIMITED', retryAfter: 30, messages: ['a'] },
      });
    });
  });

  describe('client mistakes', () => {
    it('rewords coercion failures with values from the schema', () => {
      const message = 'Variable "$input" got invalid value "FOO" at "input.tier"; Value "FOO" does not exist in "IdentityTier" enum.';
      expect(format({ message, extensions: { code: 'BAD_USER_INPUT' } })).toEqual({
        message: 'tier must be one of: BASIC, STANDARD, ENHANCED',
        extensions: { code: 'VALIDATION_FAILED' },
      });
    });

    it.each(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_REQUEST'])('reports %s as BAD_USER_INPUT', (code) => {
      expect(format({ message: 'Cannot query field "y"', extensions: { code } })).toEqual({
        message: 'Cannot query field "y"',
        extensions: { code: 'BAD_USER_INPUT' },
      });
    });
  });

  describe('failures of ours', () => {
    it('hides unknown errors and INTERNAL ones behind a generic message with an error id', () => {
      for (const extensions of [undefined, { code: 'INTERNAL_SERVER_ERROR', stacktrace: ['at db.query'] }, { code: 'INTERNAL' }]) {
        const formatted = format({ message: 'password authentication failed for user "app"', extensions }, new Error('boom'));
        expect(formatted.message).toMatch(/^Internal server error \(error id [0-9a-f-]{36}\)$/);
        expect(formatted.extensions).toEqual({ code: 'INTERNAL', errorId: expect.any(String) });
      }
    });

    it('reports an unreachable subgraph as UNAVAILABLE', () => {
      const refused = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:4002'), { code: 'ECONNREFUSED' });
      const wrapped = new GraphQLError('request to http://10.0.0.7:4002/graphql failed', {
        originalError: new TypeError('fetch failed', { cause: refused }),
      });
      const formatted = format(wrapped.toJSON(), wrapped);
      expect(formatted.extensions?.code).toBe('UNAVAILABLE');
      expect(formatted.message).not.toContain('10.0.0.7');
    });
  });
});
