import { Writable } from 'node:stream';
import { createLogger, logFormat, scrubText, type LogFormat } from './logger.js';

function capture(format?: LogFormat) {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: createLogger('test', 'trace', stream, format), text: () => lines.join('') };
}

describe('logs carry no personal data', () => {
  it('redacts personal fields by name at any depth, and keeps the rest', () => {
    const { logger, text } = capture();
    logger.info(
      {
        verificationId: 'v-1',
        fullName: 'Amina Grace Wanjiku',
        subject: { dateOfBirth: '1984-02-29', documentNumber: 'A12345678', status: 'VERIFIED' },
        input: { metadata: { sender_name: 'Jane Wanjiru', amount: 25000, nested: { deeper: { email: 'jane@example.com' } } } },
      },
      'checked',
    );
    const line = JSON.parse(text());
    expect(line).toMatchObject({
      verificationId: 'v-1',
      fullName: '[redacted]',
      subject: { dateOfBirth: '[redacted]', documentNumber: '[redacted]', status: 'VERIFIED' },
      input: { metadata: { sender_name: '[redacted]', amount: 25000, nested: { deeper: { email: '[redacted]' } } } },
      msg: 'checked',
    });
  });

  it('blanks e-mail addresses and phone numbers in messages, any string value and errors', () => {
    const { logger, text } = capture();
    logger.warn({ detail: { deeper: { note: 'retry for amina@example.com' } } }, 'sms to +254 712 345 678 failed');
    logger.error({ err: new Error('number 254712345678 refused (for amina@example.com)') }, 'provider error');
    logger.info(`code sent to ${'+233241234567'}`);
    const out = text();
    for (const value of ['amina@example.com', '+254 712 345 678', '254712345678', '+233241234567']) expect(out).not.toContain(value);
    expect(out).toContain('provider error');
    expect(out).toContain('"type":"Error"');
    expect(out).toContain('refused (for [redacted])');
  });

  it('leaves identifiers, timestamps and amounts alone', () => {
    expect(scrubText('id 5d7e0f62-2a5c-4c0e-9b7e-2f3f9a4c6b10 at 2026-11-27T00:20:40.316Z, 25000 KES, v1.2.3')).toBe(
      'id 5d7e0f62-2a5c-4c0e-9b7e-2f3f9a4c6b10 at 2026-11-27T00:20:40.316Z, 25000 KES, v1.2.3',
    );
  });
});

describe('log format', () => {
  it('lines for a person on a terminal outside production, JSON otherwise; LOG_FORMAT decides when set', () => {
    expect(logFormat({}, true)).toBe('pretty');
    expect(logFormat({ NODE_ENV: 'development' }, true)).toBe('pretty');
    expect(logFormat({ NODE_ENV: 'production' }, true)).toBe('json');
    expect(logFormat({}, false)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(logFormat({ LOG_FORMAT: 'pretty', NODE_ENV: 'production' }, false)).toBe('pretty');
  });

  it('pretty: one readable line per entry, no JSON, the level named, personal data still redacted', () => {
    const { logger, text } = capture('pretty');
    logger.info({ verificationId: 'v-1', fullName: 'Amina Grace Wanjiku' }, 'checked for amina@example.com');
    logger.error({ err: new Error('refused') }, 'provider error');
    const out = text();
    expect(out).not.toMatch(/^\{/m);
    expect(out).toMatch(/INFO.*\(test\): checked for \[redacted\]/);
    expect(out).toMatch(/ERROR.*provider error/);
    expect(out).toContain('verificationId: "v-1"');
    expect(out).toContain('fullName: "[redacted]"');
    expect(out).not.toContain('Amina');
  });
});
