import type { IncomingHttpHeaders } from 'node:http';

/** A request header's first value (node gives repeated ones as a list). */
export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
