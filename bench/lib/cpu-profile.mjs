// Reads a V8 CPU profile (node --cpu-prof) and says where the time of a window went: self time
// by package (node internals, each npm package, Herald's own bundle) and the heaviest functions.
import { readFileSync } from 'node:fs';

function bucketOf(url) {
  if (!url) return '(native / VM)';
  if (url.startsWith('node:')) return 'node internals';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  if (url.includes('/apps/server/dist/')) return 'herald (server bundle)';
  return url;
}

/**
 * `fromUs`/`toUs`: the window on the profile's clock (CLOCK_MONOTONIC microseconds, the same
 * clock as process.hrtime.bigint() / 1000n in any process on the machine).
 */
export function summarizeProfile(file, fromUs = -Infinity, toUs = Infinity) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  let t = profile.startTime;
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i];
    if (t < fromUs || t > toUs) continue;
    const delta = profile.timeDeltas[i + 1] ?? 0;
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + delta);
    total += delta;
  }
  const buckets = new Map();
  const functions = new Map();
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id);
    const name = callFrame.functionName || '(anonymous)';
    if (name === '(idle)') {
      total -= us;
      continue;
    }
    const bucket = ['(garbage collector)', '(program)'].includes(name)
      ? name
      : bucketOf(callFrame.url);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + us);
    const key = `${name} ${bucket === '(native / VM)' ? '' : `(${bucket}${callFrame.lineNumber >= 0 ? `:${callFrame.lineNumber + 1}` : ''})`}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  const top = (map, n) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ name, ms: us / 1000, share: total ? us / total : 0 }));
  return { busyMs: total / 1000, buckets: top(buckets, 12), functions: top(functions, 15) };
}
