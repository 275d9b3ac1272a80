import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { PgBoss } from 'pg-boss';
import type { Db } from '../../db/client.js';
import { posts, postTargets } from '../../db/schema.js';
import { POST_STATUSES_THAT_PUBLISH } from '../publishing/publishing.lookups.js';

/** One queue's jobs as a scrape reads them. */
export interface QueueReading {
  name: string;
  /** Due and waiting for a worker. */
  ready: number;
  /** Not due yet (a scheduled post, a retry's wait) or waiting on another job. */
  deferred: number;
  active: number;
  /** How long the oldest ready job has waited since it became due (0 when none waits). */
  oldestReadySeconds: number;
}

/**
 * Every named queue's jobs, read from pg-boss's job table in one statement whose condition is
 * that of pg-boss's own index of live jobs (job_i14: name, state, blocked, start_after): it reads
 * the live jobs through that index, never the finished ones the table keeps for days (with
 * 100,000 completed jobs beside 2,000 live ones, PostgreSQL plans a scan of job_i14). pg-boss's
 * getQueues/getQueueStats answer the counts its monitor stored at its last pass instead: a minute
 * apart, only while a worker supervises, and the oldest job's wait only with persistQueueStats.
 * A queue no worker serves any more must show its jobs piling up, so they are counted here.
 */
export async function readQueues(boss: PgBoss, queueNames: string[]): Promise<QueueReading[]> {
  const { rows } = (await boss.getDb().executeSql(
    `select name,
       count(*) filter (where state < 'active' and not blocked and start_after <= now())::int
         as ready,
       count(*) filter (where state < 'active' and (blocked or start_after > now()))::int
         as deferred,
       count(*) filter (where state = 'active')::int as active,
       extract(epoch from now() - min(start_after)
         filter (where state < 'active' and not blocked and start_after <= now()))::float8
         as oldest
     from pgboss.job
     where name = any($1::text[]) and state in ('created', 'retry', 'active', 'failed')
     group by name`,
    [queueNames],
  )) as { rows: Array<Record<string, unknown>> };
  const byName = new Map(rows.map((row) => [String(row.name), row]));
  // Every queue has its series, at 0 when it has no job: an alert on it must see it.
  return queueNames.map((name) => {
    const row = byName.get(name);
    return {
      name,
      ready: Number(row?.ready ?? 0),
      deferred: Number(row?.deferred ?? 0),
      active: Number(row?.active ?? 0),
      oldestReadySeconds: Math.max(0, Number(row?.oldest ?? 0)),
    };
  });
}

/**
 * Targets not out yet more than `minutes` after they were due, whose posts still want them; an
 * upload waiting at the network (UPLOADED) is due at its post's time, when its run records it.
 */
export async function countOverdueTargets(db: Db, minutes: number): Promise<number> {
  const [row] = await db
    .select({ overdue: sql<number>`count(*)::int` })
    .from(postTargets)
    .innerJoin(posts, eq(posts.id, postTargets.postId))
    .where(
      and(
        inArray(postTargets.status, ['QUEUED', 'READY', 'PREPARING', 'PUBLISHING', 'UPLOADED']),
        lt(postTargets.dueAt, sql`now() - make_interval(mins => ${minutes})`),
        inArray(posts.status, POST_STATUSES_THAT_PUBLISH),
      ),
    );
  return Number(row?.overdue ?? 0);
}
