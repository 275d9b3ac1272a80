#!/usr/bin/env node
// The container's health check (Dockerfile HEALTHCHECK): exits 0 when this machine's Herald
// answers 200 on GET <API_BASE_PATH>/healthz, 1 otherwise. It reads the settings the server
// listens by, so a changed PORT, HOST or API_BASE_PATH needs no second place to change.
// healthz stays 200 while a stopping process finishes its work (readyz is what turns 503), so a
// process draining after SIGTERM is not reported unhealthy and restarted in the middle of it.
const env = process.env;
const wildcard = !env.HOST || env.HOST === '0.0.0.0' || env.HOST === '::';
const host = wildcard ? '127.0.0.1' : env.HOST.includes(':') ? `[${env.HOST}]` : env.HOST;
const basePath = (env.API_BASE_PATH ?? '/api').replace(/\/+$/, '');
const url = `http://${host}:${env.PORT || 3000}${basePath}/healthz`;

try {
  const res = await fetch(url, { signal: AbortSignal.timeout(4000) });
  if (!res.ok) console.error(`${url} answered ${res.status}`);
  process.exit(res.ok ? 0 : 1);
} catch (err) {
  console.error(`${url}: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
