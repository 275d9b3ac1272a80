import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { Semaphores, type PublishSlots } from './caps.js';

/**
 * Tries the slots listed in `$2`, in order, on the lock space of `$1`, and answers the first one
 * it took. A recursive query computes each step from the row of the step before, so it stops at
 * the first lock taken: a plain `WHERE pg_try_advisory_lock(…) LIMIT 1` leaves it to the planner
 * how many rows are tried, and could take locks nobody knows of.
 */
const TAKE_FIRST_FREE = `
with recursive attempt(i, taken) as (
  select 1, pg_try_advisory_lock($1::int, ($2::int[])[1])
  union all
  select i + 1, pg_try_advisory_lock($1::int, ($2::int[])[i + 1])
  from attempt where not taken and i < cardinality($2::int[])
)
select ($2::int[])[i] as slot from attempt where taken`;

const GIVE_BACK = 'select pg_advisory_unlock($1::int, $2::int)';
const TAKE_AGAIN = 'select pg_try_advisory_lock($1::int, $2::int) as taken';

/** Waits between tries while every slot is taken elsewhere: first, then doubling up to the last. */
const FIRST_WAIT_MS = 20;
const LONGEST_WAIT_MS = 200;

/**
 * The lock space of a key: the first 32 bits of its hash. Herald's other advisory locks use the
 * one-number form, which PostgreSQL keeps apart from this two-number one. Two keys that happen to
 * share a space only wait for each other more than they need to; no cap is ever exceeded.
 */
function lockSpaceOf(key: string): number {
  return createHash('sha256').update(`herald publish slot ${key}`).digest().readInt32BE(0);
}

/** Waits `ms`; false when `signal` aborts first. */
function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const done = (ok: boolean) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', aborted);
      resolve(ok);
    };
    const aborted = () => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/**
 * The caps' slots across every process on one PostgreSQL database (`herald api` and `herald
 * worker` both publish). Slot i of a key is a session advisory lock (space of the key, i), held on
 * one connection of this process's own, outside the pool: the database gives back every slot of a
 * process whose connection ends, so a crashed or killed holder frees its slots at once, with no
 * lease to renew or expire. Within the process, a semaphore per key keeps its own holders to the
 * limit (a session takes its own locks again, so the database alone would not), and one waiter
 * per key at a time asks the database, with a growing pause while every slot is held elsewhere.
 *
 * The connection must be a real session: a pooler in transaction mode (PgBouncer) would hand the
 * locks to whichever client runs next.
 */
export class SharedSlots implements PublishSlots {
  private readonly local = new Semaphores();
  private readonly lanes = new Semaphores();
  /** Slot numbers this process holds, by key: the ones its waiters must not ask for again. */
  private readonly held = new Map<string, Set<number>>();
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  async acquire(key: string, limit: number, signal?: AbortSignal) {
    const local = await this.local.acquire(key, limit, signal);
    if (!local) return null;
    let slot: number | null;
    try {
      slot = await this.take(key, limit, signal);
    } catch (err) {
      local();
      throw err;
    }
    if (slot === null) {
      local();
      return null;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      void this.give(key, slot).finally(local);
    };
  }

  async close() {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => null)) ?? null;
    this.client = null;
    // Ending the session gives back every slot it holds.
    await client?.end().catch(() => {});
  }

  /** One free slot of `key` taken at the database, or null when `signal` ends the wait. */
  private async take(key: string, limit: number, signal?: AbortSignal): Promise<number | null> {
    const lane = await this.lanes.acquire(key, 1, signal);
    if (!lane) return null;
    try {
      const space = lockSpaceOf(key);
      for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
        if (this.closed) throw new Error('The process is stopping: it publishes nothing more.');
        const mine = this.held.get(key) ?? new Set<number>();
        // From a random slot on, so processes asking at once do not all try slot 0 first.
        const start = Math.floor(Math.random() * limit);
        const candidates: number[] = [];
        for (let n = 0; n < limit; n++) {
          const slot = (start + n) % limit;
          if (!mine.has(slot)) candidates.push(slot);
        }
        if (candidates.length > 0) {
          const client = await this.connection();
          const { rows } = await client.query<{ slot: number | null }>(TAKE_FIRST_FREE, [
            space,
            candidates,
          ]);
          const slot = rows[0]?.slot;
          if (slot !== undefined && slot !== null) {
            this.held.set(key, mine.add(slot));
            return slot;
          }
        }
        if (!(await pause(wait * (0.5 + Math.random()), signal))) return null;
      }
    } finally {
      lane();
    }
  }

  private async give(key: string, slot: number) {
    try {
      // Only the session holding the lock can give it back; a new one made after a lost
      // connection may have taken it again.
      const client = this.client ?? (await this.connecting?.catch(() => null)) ?? null;
      await client?.query(GIVE_BACK, [lockSpaceOf(key), slot]);
    } catch (err) {
      // A lost connection gave back its locks with it.
      this.log.warn({ err, key }, 'could not give back a publishing slot');
    } finally {
      const mine = this.held.get(key);
      mine?.delete(slot);
      if (mine?.size === 0) this.held.delete(key);
    }
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: this.url,
      // A holder whose host vanished is noticed by the database, which then frees its slots.
      keepAlive: true,
      connectionTimeoutMillis: 5000,
      application_name: 'herald publishing slots',
    });
    client.on('error', (err) => this.lost(client, err));
    try {
      await client.connect();
      await this.takeAgain(client);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      throw new Error('The process is stopping: it publishes nothing more.');
    }
    this.client = client;
    return client;
  }

  /**
   * After a lost connection: the slots this process still uses, taken again on the new session
   * (opened for the next slot asked for or given back).
   * One another process took meanwhile stays theirs; the cap is exceeded by it until the run
   * holding it here ends, which the log says.
   */
  private async takeAgain(client: pg.Client) {
    for (const [key, slots] of this.held) {
      for (const slot of slots) {
        const { rows } = await client.query<{ taken: boolean }>(TAKE_AGAIN, [
          lockSpaceOf(key),
          slot,
        ]);
        if (!rows[0]?.taken)
          this.log.error(
            { key, slot },
            'a publishing slot held here was taken elsewhere while the connection was lost: the cap may be exceeded until this run ends',
          );
      }
    }
  }

  private lost(client: pg.Client, err: Error) {
    if (this.client !== client) return;
    this.client = null;
    void client.end().catch(() => {});
    if (this.held.size === 0 || this.closed) return;
    // Taken again with the next connection (the next slot asked for or given back).
    this.log.warn({ err }, 'lost the connection holding the publishing slots');
  }
}
