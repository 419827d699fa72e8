import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/** One subscribe of a reconnecting subscription, from the subscribe message to its end. */
export interface SubscriptionSession {
  startedAt: number;
  /** When the subscription was seen served (`served()` held); changes committed later reach it. */
  liveAt?: number;
  /** When `onLive` (the client's re-read of what it may have missed) had finished. */
  resyncedAt?: number;
  endedAt?: number;
  /** The errors (or close event) it ended with; 'complete' when the server completed it without one. */
  endedWith?: unknown;
  /** The events received in this session (data of each `next` without errors). */
  events: Array<{ at: number; data: any }>;
}

export interface ReconnectingSubscriptionOptions {
  /** The gateway's GraphQL URL (http…; the socket uses ws…). */
  url: string;
  connectionParams: Record<string, string>;
  query: string;
  variables?: Record<string, unknown>;
  /** Whether the current subscribe is now served by the subgraph (e.g. the service's subscription count). */
  served(): Promise<boolean>;
  /** Once a session is served: what a real client does after a reconnect (re-read the state). Retried until it succeeds or the session ends. */
  onLive?(session: SubscriptionSession): Promise<void>;
  /** Called with each event's data. */
  onEvent?(data: any, session: SubscriptionSession): void;
  /** A real client's back-off between resubscribes (default 200 ms). */
  retryMs?: number;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A graphql-ws subscription that subscribes again whenever it ends (the gateway ends it with an
 * UNAVAILABLE error when the subgraph serving it dies), as a real client would, on the same
 * connection to the gateway. It keeps every session with its events, when it was seen served
 * and how it ended.
 */
export class ReconnectingSubscription {
  readonly sessions: SubscriptionSession[] = [];
  private readonly client: Client;
  private closed = false;
  private wakeClosed!: () => void;
  private readonly closing = new Promise<void>((resolve) => (this.wakeClosed = resolve));
  private readonly running: Promise<void>;

  constructor(private readonly opts: ReconnectingSubscriptionOptions) {
    this.client = createClient({
      url: opts.url.replace(/^http/, 'ws'),
      webSocketImpl: WebSocket,
      connectionParams: opts.connectionParams,
      retryAttempts: 0,
      // one socket to the gateway, open until close(): a resubscribe goes over the same connection
      lazy: false,
      onNonLazyError: () => undefined,
    });
    this.running = this.run();
  }

  /** The session in progress (subscribed, not ended), if any. */
  get subscribed(): SubscriptionSession | undefined {
    const last = this.sessions.at(-1);
    return last && last.endedAt === undefined ? last : undefined;
  }

  /** The current session is served and the client has re-read the state. */
  get live(): boolean {
    return this.subscribed?.resyncedAt !== undefined;
  }

  get events(): Array<{ at: number; data: any }> {
    return this.sessions.flatMap((s) => s.events);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wakeClosed();
    await this.running;
    await this.client.dispose();
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      const session: SubscriptionSession = { startedAt: Date.now(), events: [] };
      this.sessions.push(session);
      let wakeEnded!: () => void;
      const ended = new Promise<void>((resolve) => (wakeEnded = resolve));
      const end = (why: unknown) => {
        if (session.endedAt !== undefined) return;
        session.endedAt = Date.now();
        session.endedWith ??= why;
        wakeEnded();
      };
      const unsubscribe = this.client.subscribe<any>(
        { query: this.opts.query, variables: this.opts.variables },
        {
          next: (value) => {
            // the gateway sends an upstream failure as errors, then completes
            if (value.errors?.length) return void (session.endedWith = value.errors);
            session.events.push({ at: Date.now(), data: value.data });
            this.opts.onEvent?.(value.data, session);
          },
          error: (error) => end(error),
          complete: () => end('complete'),
        },
      );
      const stop = Promise.race([ended, this.closing]);
      const over = () => this.closed || session.endedAt !== undefined;
      while (!over()) {
        if (await this.opts.served().catch(() => false)) {
          session.liveAt ??= Date.now();
          if (!this.opts.onLive) break;
          try {
            await this.opts.onLive(session);
            break;
          } catch {
            // the state could not be read (yet): again, unless the session is over
          }
        }
        await Promise.race([stop, pause(25)]);
      }
      if (!over()) session.resyncedAt = Date.now();
      await stop;
      unsubscribe();
      if (!this.closed) await Promise.race([this.closing, pause(this.opts.retryMs ?? 200)]);
    }
  }
}
