import { createHmac } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_RECEIVERS } from '../../platforms/inbox-receivers.js';
import { xSignature } from '../../platforms/x/webhooks.js';
import { createTestApp, type TestApp } from '../app.js';
import { envelopeProblem, type Answer } from './check.js';
import { Prng, seedOf } from './prng.js';
import { rawRequest } from './raw-http.js';

// The webhook receivers, `GET|POST /api/webhooks/{provider}`: public, unauthenticated, and left
// out of the OpenAPI document, so the operation fuzzer never reaches them. Handshakes with
// repeated, huge, empty and odd parameters (JSON, markup, unicode, NUL, `name[]=`), deliveries
// that are unsigned, signed but not JSON, empty, huge, of another network. Any 5xx, any error
// outside the envelope, and any success of the wrong shape fails. Deterministic: FUZZ_SEED and
// FUZZ_BUDGET (generated requests per provider and method).

const SEED = Number(process.env.FUZZ_SEED ?? 15);
const BUDGET = Number(process.env.FUZZ_BUDGET ?? 30);
const REQUEST_TIMEOUT_MS = 10_000;
const LOG = process.env.FUZZ_LOG;

const PROVIDERS = ['x', 'meta', 'threads', 'facebook', 'instagram', 'linkedin', 'nobody'];
const HANDSHAKE_PARAMS = ['crc_token', 'hub.mode', 'hub.verify_token', 'hub.challenge'];

let t: TestApp;
let verifyToken: string;

beforeAll(async () => {
  // The handshake's per-IP limit stays on (its 429s are fuzzed too), high enough for the run.
  t = await createTestApp({ RATE_LIMIT_SIGNIN_PER_MINUTE: '100000' });
  verifyToken = t.runtime.inbox.metaVerifyToken!;
}, 120_000);
afterAll(() => t?.close());

const secretOf = (provider: string) => {
  const receiver = WEBHOOK_RECEIVERS.find((r) => r.provider === provider);
  return receiver ? t.runtime.inbox.sync.appSecret(receiver) : null;
};

/** Values a handshake parameter may be given. */
function oddValue(prng: Prng): string {
  return prng.pick([
    '',
    '{}',
    '[]',
    'null',
    '{"data":{"event_type":"dm.received","filter":{"user_id":"1"}}}',
    '{"object":"page","entry":[]}',
    '<script>alert(1)</script>',
    'caf\u00e9 \u{1f4a5} \u202e',
    'nul\u0000byte',
    '%00',
    'line\r\nX-Injected: 1',
    'subscribe',
    verifyToken,
    '1158201444',
    '9b4507b3-9040-4669-9ca3-6b94edb50553',
    'a'.repeat(prng.pick([256, 257, 5000, 100_000])),
    '\ud800', // a lone surrogate: sent as the bytes of one, which are no UTF-8
    '__proto__',
  ]);
}

/** What the network sends for a handshake parameter. */
function usualValue(name: string, prng: Prng): string {
  if (name === 'hub.mode') return 'subscribe';
  if (name === 'hub.verify_token') return verifyToken;
  return prng.pick(['1158201444', '9b4507b3-9040-4669-9ca3-6b94edb50553', 'Y2hhbGxlbmdl==']);
}

/** Percent-encodes `value`; a lone surrogate becomes the (invalid UTF-8) bytes of one. */
const encode = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
};

/**
 * A handshake query: one network's own handshake (X's or Meta's), then up to three changes — a
 * value made odd, a parameter repeated, renamed `name[]`, dropped, or one of the other network's
 * added — so that whole handshakes get through as well as every way of breaking one.
 */
function handshakeQuery(prng: Prng): string {
  const names = prng.chance(0.4)
    ? ['crc_token']
    : ['hub.mode', 'hub.verify_token', 'hub.challenge'];
  const params: Array<[string, string]> = names.map((name) => [name, usualValue(name, prng)]);
  for (let changes = prng.int(0, 3); changes > 0; changes--) {
    const at = prng.int(0, Math.max(0, params.length - 1));
    const param = params[at];
    const change = param ? prng.int(0, 4) : 4;
    if (change === 0) param![1] = oddValue(prng);
    if (change === 1) params.push([param![0], prng.chance(0.5) ? param![1] : oddValue(prng)]);
    if (change === 2) param![0] = `${param![0]}[]`;
    if (change === 3) params.splice(at, 1);
    if (change === 4) {
      const name = prng.pick(HANDSHAKE_PARAMS);
      params.push([name, prng.chance(0.5) ? usualValue(name, prng) : oddValue(prng)]);
    }
  }
  if (prng.chance(0.05)) params.push(['__proto__', 'x'], ['constructor[prototype][polluted]', '1']);
  return params.map(([name, value]) => `${encode(name)}=${encode(value)}`).join('&');
}

/** A delivery body: nothing, not JSON, JSON of the wrong kind, huge. */
function oddBody(prng: Prng): string {
  return prng.pick([
    '',
    'not json',
    '{',
    '{}',
    '[]',
    'null',
    '"text"',
    '\u0000',
    'caf\u00e9 \u{1f4a5}',
    '{"object":"page","entry":"nonsense"}',
    '{"object":"page"}',
    '{"object":"instagram","entry":[]}',
    '{"data":[]}',
    '{"data":{"event_type":"dm.received"}}',
    '[{"target_id":1,"values":[]}]',
    '{"target_id":"1","values":{"field":"replies","value":{}}}',
    JSON.stringify({ object: 'page', entry: [{ id: 'p', messaging: Array(2000).fill({}) }] }),
    `{"s":"${'a'.repeat(100_000)}"}`,
    'a'.repeat(1_100_000),
  ]);
}

/** The signature headers a body may carry: none, wrong, or right for the address's network. */
function signatureHeaders(prng: Prng, provider: string, body: string): Record<string, string> {
  const secret = secretOf(provider);
  const choice = prng.int(0, 3);
  if (choice === 0 || !secret) return {};
  if (choice === 1)
    return { 'x-hub-signature-256': 'sha256=zz', 'x-twitter-webhooks-signature': 'sha256=' };
  if (provider === 'x') return { 'x-twitter-webhooks-signature': xSignature(secret, body) };
  return {
    'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
  };
}

/** Whether `headers` hold the signature the address's network puts on `body`. */
function signedRight(provider: string, body: string, headers: Record<string, string>) {
  const secret = secretOf(provider);
  if (!secret) return false;
  return provider === 'x'
    ? headers['x-twitter-webhooks-signature'] === xSignature(secret, body)
    : headers['x-hub-signature-256'] ===
        `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** What is wrong with an answer, or null. */
function problemOf(method: string, provider: string, a: Answer): string | null {
  if (a.status >= 500) return `server error ${a.status}: ${a.body.slice(0, 160)}`;
  if (a.status >= 400) return method === 'HEAD' ? null : envelopeProblem(a);
  if (a.status !== 200) return `unexpected status ${a.status}`;
  if (method === 'HEAD') return null;
  if (method === 'POST') {
    return /"status":"success"/.test(a.body) ? null : `success outside the envelope: ${a.body}`;
  }
  if (provider === 'x') {
    const token = (JSON.parse(a.body) as { response_token?: unknown }).response_token;
    return typeof token === 'string' && /^sha256=[A-Za-z0-9+/]{43}=$/.test(token)
      ? null
      : `CRC answer of the wrong shape: ${a.body.slice(0, 160)}`;
  }
  // Meta's echo: only a bounded token of safe characters is ever sent back.
  return /^[A-Za-z0-9+/_-]{1,256}={0,2}$/.test(a.body)
    ? null
    : `echoed challenge of the wrong shape: ${JSON.stringify(a.body.slice(0, 160))}`;
}

const show = (method: string, url: string, note = '') =>
  `${method} ${url.length > 160 ? `${url.slice(0, 160)}…` : url}${note ? ` [${note}]` : ''}`;

describe('fuzzing the webhook receivers', () => {
  it('answers every generated handshake and delivery with the envelope or a well-formed success', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const provider of PROVIDERS) {
      const prng = new Prng(seedOf(`webhooks ${provider}`, SEED));
      for (let i = 0; i < BUDGET; i++) {
        const method = prng.chance(0.1) ? 'HEAD' : 'GET';
        const url = `/api/webhooks/${provider}?${handshakeQuery(prng)}`;
        sent++;
        try {
          const res = await t.app.inject({ method, url });
          const answer = { status: res.statusCode, headers: res.headers, body: res.body };
          if (LOG) appendFileSync(LOG, `${res.statusCode} ${show(method, url)}\n`);
          const problem = problemOf(method, provider, answer);
          if (problem) failures.push(`${show(method, url)}: ${problem}`);
        } catch (err) {
          failures.push(`${show(method, url)}: ${(err as Error).message}`);
        }
      }
      for (let i = 0; i < BUDGET; i++) {
        const body = oddBody(prng);
        const contentType = prng.pick([
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          null,
        ]);
        const url = `/api/webhooks/${provider}`;
        const note = `${contentType ?? 'no type'}, ${body.length} chars: ${JSON.stringify(body.slice(0, 40))}`;
        sent++;
        try {
          const signature = signatureHeaders(prng, provider, body);
          const res = await t.app.inject({
            method: 'POST',
            url,
            headers: { ...(contentType ? { 'content-type': contentType } : {}), ...signature },
            payload: body,
          });
          const answer = { status: res.statusCode, headers: res.headers, body: res.body };
          if (LOG) appendFileSync(LOG, `${res.statusCode} ${show('POST', url, note)}\n`);
          const problem = problemOf('POST', provider, answer);
          if (problem) failures.push(`${show('POST', url, note)}: ${problem}`);
          if (res.statusCode < 400 && !signedRight(provider, body, signature))
            failures.push(`${show('POST', url, note)}: stored without the right signature`);
        } catch (err) {
          failures.push(`${show('POST', url, note)}: ${(err as Error).message}`);
        }
      }
    }
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(sent).toBe(PROVIDERS.length * BUDGET * 2);
    expect(failures, `${failures.length} of ${sent} requests failed`).toEqual([]);
  }, 300_000);

  // Bytes exactly as given on a socket: percent-encodings left broken, NUL, `name[]`, repeats.
  it('answers raw handshakes with broken encodings and repeated parameters with the envelope', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const queries = [
      'crc_token=%',
      'crc_token=%zz',
      'crc_token=%C0%AE',
      'crc_token=%00',
      'crc_token[]=a',
      'crc_token[]=a&crc_token[]=b',
      'crc_token=a&crc_token=b',
      'crc_token=a&crc_token=',
      'crc_token={"data":{}}',
      `crc_token=${'a'.repeat(7000)}`,
      'hub.mode=subscribe&hub.mode=subscribe',
      `hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=%`,
      `hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=%00`,
      `hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge[]=1`,
      `hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=<b>`,
      'hub.verify_token=%E0%A4%A&hub.challenge=1',
    ];
    const failures: string[] = [];
    let sent = 0;
    for (const provider of ['x', 'meta', 'threads']) {
      for (const query of queries) {
        const target = `/api/webhooks/${provider}?${query}`;
        const head = `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}`;
        sent++;
        try {
          const answer = await rawRequest(port, head, REQUEST_TIMEOUT_MS);
          if (LOG) appendFileSync(LOG, `${answer.status} ${show('GET', target)} (socket)\n`);
          const problem = problemOf('GET', provider, answer);
          if (problem) failures.push(`${show('GET', target)}: ${problem}`);
        } catch (err) {
          failures.push(`${show('GET', target)}: ${(err as Error).message}`);
        }
      }
    }
    expect(sent).toBe(queries.length * 3);
    expect(failures, `${failures.length} of ${sent} raw requests failed`).toEqual([]);
  }, 120_000);
});
