import { AppError, restErrorBody, statusOf } from './errors.js';

describe('error model', () => {
  it('maps codes to HTTP statuses', () => {
    expect(statusOf('VALIDATION_FAILED')).toBe(422);
    expect(statusOf('RATE_LIMITED')).toBe(429);
    expect(statusOf('SOMETHING_ELSE')).toBe(500);
  });
  it('keeps one message per invalid field', () => {
    const e = new AppError('VALIDATION_FAILED', ['tier must be one of: BASIC', 'userId must not be empty']);
    expect(e.extensions).toMatchObject({ code: 'VALIDATION_FAILED', messages: ['tier must be one of: BASIC', 'userId must not be empty'] });
    expect(restErrorBody('VALIDATION_FAILED', e.messages)).toMatchObject({
      statusCode: 422,
      error: 'Unprocessable Entity',
      message: e.messages,
    });
    expect(restErrorBody('NOT_FOUND', ['x not found']).message).toBe('x not found');
  });
});
