// CPU time of processes from /proc (Linux): how a bench splits the work of one run between
// Herald's processes and the PostgreSQL backends serving them.
import { readFileSync } from 'node:fs';

/** CPU time (ms) a process has used so far, from /proc (Linux); NaN elsewhere. */
export function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/**
 * CPU used so far by every backend of the database `query` runs on (but its own), by pid:
 * `query(sql)` answers `{ rows }` (a pg Pool or Client's query).
 */
export async function backendsCpu(query) {
  const { rows } = await query(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]));
}

/** CPU ms the backends spent between two `backendsCpu` readings (those present in both). */
export function backendsSpent(before, after) {
  let ms = 0;
  for (const [pid, now] of after) if (before.has(pid)) ms += now - before.get(pid);
  return ms;
}
