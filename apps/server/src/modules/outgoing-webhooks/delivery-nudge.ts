import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Database } from '../../db/client.js';
import { WEBHOOKS_DUE_CHANNEL } from './outgoing-webhooks.repository.js';

/**
 * Runs `deliver` when nudged, one run at a time: a nudge during a run asks for one more run after
 * it, so an event recorded while the last claim was being made still goes at once. Nudges during
 * a run are folded into that one more run. Deliveries are claimed row by row (claimDue), so runs
 * in other processes never send one delivery twice at once either.
 */
export function coalescingRunner(deliver: () => Promise<unknown>, log: FastifyBaseLogger) {
  let running: Promise<void> | null = null;
  let again = false;
  const loop = async () => {
    do {
      again = false;
      await deliver().catch((err: unknown) =>
        log.error({ err }, 'delivering webhook events at once failed; the minute job retries'),
      );
    } while (again);
    running = null;
  };
  return {
    nudge() {
      if (running) again = true;
      else running = loop();
    },
    /** The run in progress, if any (awaited when stopping). */
    idle: () => running ?? Promise.resolve(),
  };
}

/**
 * Listens for the nudges `insertEventDeliveries` sends as its transaction commits, so that a
 * working process sends new events at once instead of at the next minute's job (which stays the
 * safety net: a nudge lost with the connection waits for it). On PostgreSQL a dedicated
 * connection that reconnects by itself; embedded, PGlite's own listen.
 */
export class DeliveryNudges {
  private stopListening: (() => Promise<void>) | null = null;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly onNudge: () => void,
    private readonly log: FastifyBaseLogger,
  ) {}

  async start() {
    this.stopped = false;
    if (this.database.kind === 'pglite') {
      const stop = await this.database.pglite.listen(WEBHOOKS_DUE_CHANNEL, () => this.onNudge());
      this.stopListening = stop;
      return;
    }
    await this.connectPg(this.database.url);
  }

  private async connectPg(url: string) {
    const client = new pg.Client({ connectionString: url });
    const retry = () => {
      if (this.stopped) return;
      setTimeout(() => void this.connectPg(url).catch(() => retry()), 2000).unref();
    };
    client.on('error', (err) => {
      this.log.warn({ err: err.message }, 'webhook nudge listener lost its connection');
      void client.end().catch(() => {});
      retry();
    });
    client.on('notification', () => this.onNudge());
    try {
      await client.connect();
      await client.query(`LISTEN ${WEBHOOKS_DUE_CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    // Events recorded while it was not listening were not nudged: send them now.
    this.onNudge();
    this.stopListening = () => client.end();
  }

  async stop() {
    this.stopped = true;
    await this.stopListening?.().catch(() => {});
    this.stopListening = null;
  }
}
