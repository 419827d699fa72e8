/**
 * Every HTTP server of the platform keeps an idle kept-alive connection 65 s (Node's default is
 * 5 s), longer than the load balancers and client pools in front of it commonly keep theirs (60 s):
 * the side that closes an idle connection first may close it just as the other sends a request on
 * it, and that request fails with a reset. Headers must arrive within a second more.
 */
export const SERVER_TIMEOUTS = { keepAliveTimeout: 65_000, headersTimeout: 66_000 } as const;
