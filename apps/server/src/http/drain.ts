import type { IncomingMessage, Server, ServerResponse } from 'node:http';

const drains = new Set<HttpDrain>();

/**
 * Marks `res` as a live stream (Server-Sent Events), open for as long as its client listens: it
 * does not hold a stop open (it would until the grace period ends); it is closed with the server
 * and its client reconnects, through the load balancer, to a process that is not stopping.
 */
export function markLiveStream(res: ServerResponse) {
  drains.forEach((drain) => drain.settle(res));
}

/**
 * The HTTP half of a graceful stop. Counts the requests in flight on `server`; once `start` is
 * called, every answer (those under way whose headers are not out yet, and those of requests
 * that still arrive while a load balancer has not yet seen readyz fail) carries
 * `Connection: close`, so that keep-alive connections end after their current request instead
 * of being cut later; `idle()` says when nothing is in flight any more.
 */
export class HttpDrain {
  private readonly inFlight = new Set<ServerResponse>();
  private stopping = false;
  private onIdle: (() => void) | null = null;

  constructor(server: Server) {
    // Before the framework's own listener, so the header is set before any answer can start.
    server.prependListener('request', (_request: IncomingMessage, res: ServerResponse) => {
      if (this.stopping) res.setHeader('connection', 'close');
      this.inFlight.add(res);
      res.once('close', () => this.settle(res));
    });
    drains.add(this);
    server.once('close', () => drains.delete(this));
  }

  /** Whether a stop has begun (readyz answers 503 from then on). */
  get isStopping(): boolean {
    return this.stopping;
  }

  /** Requests in flight that hold the stop open. */
  get pending(): number {
    return this.inFlight.size;
  }

  start() {
    this.stopping = true;
    for (const res of this.inFlight) {
      if (!res.headersSent) res.setHeader('connection', 'close');
    }
  }

  /** Resolves once no request holds the stop open (at once when none does). */
  idle(): Promise<void> {
    if (this.inFlight.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const previous = this.onIdle;
      this.onIdle = () => {
        previous?.();
        resolve();
      };
    });
  }

  /** `res` ended, or turned out to be a live stream: it no longer holds the stop open. */
  settle(res: ServerResponse) {
    this.inFlight.delete(res);
    if (this.inFlight.size > 0 || !this.onIdle) return;
    const notify = this.onIdle;
    this.onIdle = null;
    notify();
  }
}
