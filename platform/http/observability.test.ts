import { redactUrl } from './observability.js';

describe('request logs', () => {
  it('never show secrets passed in a query string', () => {
    expect(redactUrl('/callbacks/sms/africastalking?token=callback-secret')).toBe('/callbacks/sms/africastalking?token=[redacted]');
    expect(redactUrl('/x?a=1&API_KEY=k&secret=s#f')).toBe('/x?a=1&API_KEY=[redacted]&secret=[redacted]#f');
    expect(redactUrl('/v1/notifications?to=someone&page=2')).toBe('/v1/notifications?to=someone&page=2');
  });
});
