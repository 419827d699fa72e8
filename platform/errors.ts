import { GraphQLError } from 'graphql';

/** The one error model: GraphQL `extensions.code` ↔ HTTP status (ARCHITECTURE.md, principle 6). */
export const ERROR_STATUS = {
  BAD_USER_INPUT: 400,
  VALIDATION_FAILED: 422,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const HTTP_REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && code in ERROR_STATUS;
}

/** The code of a client error's HTTP status set by a library (body parsers, Express's URL decoding). */
export function clientErrorCodeOf(status: unknown): ErrorCode | undefined {
  if (typeof status !== 'number' || status < 400 || status >= 500) return undefined;
  return (Object.keys(ERROR_STATUS) as ErrorCode[]).find((code) => ERROR_STATUS[code] === status) ?? 'BAD_USER_INPUT';
}

export function statusOf(code: unknown): number {
  return isErrorCode(code) ? ERROR_STATUS[code] : 500;
}

/**
 * A known failure. Domain code throws these; transports map them (GraphQL extensions, HTTP status).
 * `messages` carries one line per invalid field for validation failures.
 */
export class AppError extends GraphQLError {
  readonly code: ErrorCode;
  readonly messages: string[];

  constructor(code: ErrorCode, message: string | string[], extra: Record<string, unknown> = {}) {
    const messages = Array.isArray(message) ? message : [message];
    super(messages.join('; '), { extensions: { code, ...(messages.length > 1 || Array.isArray(message) ? { messages } : {}), ...extra } });
    this.code = code;
    this.messages = messages;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const badInput = (message: string | string[]) => new AppError('BAD_USER_INPUT', message);
export const invalid = (message: string | string[]) => new AppError('VALIDATION_FAILED', message);
export const notFound = (what: string, id?: string) => new AppError('NOT_FOUND', id ? `${what} ${id} not found` : `${what} not found`);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const forbidden = (message = 'Insufficient permissions') => new AppError('FORBIDDEN', message);
export const unauthenticated = (message = 'Missing or invalid API key') => new AppError('UNAUTHENTICATED', message);
export const rateLimited = (retryAfterSeconds: number) =>
  new AppError('RATE_LIMITED', 'Rate limit exceeded', { retryAfter: retryAfterSeconds });

/** REST error body compatible with the published reference API (COMPATIBILITY.md). */
export function restErrorBody(code: ErrorCode, messages: string[]) {
  const statusCode = ERROR_STATUS[code];
  const listed = code === 'VALIDATION_FAILED' || code === 'BAD_USER_INPUT';
  return {
    statusCode,
    error: HTTP_REASON[statusCode] ?? 'Error',
    code,
    message: listed ? messages : messages.join('; '),
    timestamp: new Date().toISOString(),
  };
}
