import { appendFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CookieJar, createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../app.js';
import { type Actor, addMember, createOrg, signIn } from '../factories.js';
import { multipart } from '../multipart.js';
import { connectThroughSandbox } from '../networks.js';
import { usePostgres } from '../postgres.js';
import { answerProblem, type Answer } from './check.js';
import { type FuzzRequest, generateRequests } from './generate.js';
import { type Operation, operationsOf } from './openapi.js';
import { Prng, seedOf } from './prng.js';
import { rawRequest } from './raw-http.js';

// `npm run test:fuzz`: requests generated from every operation of the OpenAPI document, sent
// to the real app by a signed-in Admin of an organization on a trial (and platform operator, so
// the back-office routes are reached too). Any 5xx, any 4xx outside the error envelope, any
// 2xx outside the documented shape, and any request unanswered within REQUEST_TIMEOUT_MS fails.
// Deterministic: FUZZ_SEED (default below) and FUZZ_BUDGET requests per operation.

const SEED = Number(process.env.FUZZ_SEED ?? 15);
const BUDGET = Number(process.env.FUZZ_BUDGET ?? 30);
const REQUEST_TIMEOUT_MS = 10_000;
const EMAIL = 'fuzzer@fuzz.test';
/** FUZZ_LOG=file: one line per request (status, request, mutation), to see what was reached. */
const LOG = process.env.FUZZ_LOG;

/** Operations that end the session they are sent with: each request gets a fresh one. */
const ENDS_SESSION = new Set(['POST /api/auth/logout']);
/**
 * Operations that end the organization's trial or disconnect its accounts: run last, so the
 * others see a paying organization with connected networks.
 */
const RUN_LAST = new Set([
  'POST /api/organizations/{orgId}/subscription/cancel',
  'POST /api/{platform}/disconnect/{orgId}',
]);

/**
 * Operations that speak another protocol, not Herald's API: the development OpenID Connect
 * provider (oidc-provider answers OAuth JSON errors, HTML error pages and plain 404s, as its
 * specification says) and its HTML sign-in pages. Their 4xx answers are not held to the
 * envelope; no 5xx and no hang still apply.
 */
const FOREIGN_FORMAT = [/^\/api\/oidc(\/|$)/, /^\/api\/dev-idp\//];

const keyOf = (op: Operation) => `${op.method} ${op.path}`;

usePostgres();
let t: TestApp;
let jar: CookieJar;
let orgId: string;
let operations: Operation[];
let known: Record<string, string[]>;

/** Records the generated requests can name: connected networks, a post, a role, a member. */
async function seedRecords(actor: Actor): Promise<Record<string, string[]>> {
  for (const slug of ['x', 'threads']) {
    expect(await connectThroughSandbox(t.app, actor, slug, orgId)).toContain('connected=');
  }
  const supported = await actor.call('GET', '/api/platforms/supported');
  const platforms = supported.body.data.platforms as Array<{ id: string; name: string }>;
  const platformId = platforms.filter((p) => ['X', 'Threads'].includes(p.name)).map((p) => p.id);
  const form = await multipart({
    platformIds: JSON.stringify(platformId),
    content: 'A post for the fuzzer',
    action: 'draft',
  });
  const post = await send(t.app, actor.jar, {
    method: 'POST',
    url: `/api/organizations/${orgId}/post`,
    headers: { ...form.headers, origin: TEST_PUBLIC_URL },
    payload: form.payload,
  });
  expect(post.statusCode).toBe(201);
  const permissions = await actor.call('GET', '/api/permissions');
  const permissionId = (permissions.body as Array<{ id: string }>).map((p) => p.id);
  const role = await actor.call('POST', `/api/organizations/${orgId}/roles`, {
    name: 'Fuzzed role',
    description: 'Changed by the fuzzer',
    permissionIds: permissionId.slice(0, 2),
  });
  expect(role.status).toBe(201);
  const member = await addMember(t.app, actor, orgId, 'fuzzed-member@fuzz.test');
  const plans = await actor.call('GET', '/api/plans');
  const integrations = await actor.call('GET', `/api/organizations/${orgId}/integrations`);
  return {
    platformId,
    platform: ['x', 'threads'],
    postId: [post.json().data.post.id],
    roleId: [role.body.data.role.id],
    permissionId,
    memberId: [member.memberId],
    userId: [member.actor.userId],
    planId: (plans.body.data.plans as Array<{ id: string }>).map((p) => p.id),
    integrationId: (integrations.body.data.platforms as Array<{ id: string }>).map((i) => i.id),
  };
}

beforeAll(async () => {
  // Limits high enough for a fuzz run that signs in afresh for each logout, and still on: their
  // hooks and 429s are part of what is fuzzed.
  t = await createTestApp({
    ADMIN_EMAILS: EMAIL,
    RATE_LIMIT_SIGNIN_PER_MINUTE: '100000',
    RATE_LIMIT_WRITES_PER_MINUTE: '100000',
  });
  const org = await createOrg(t.app, EMAIL, 'Fuzz Co');
  ({ orgId } = org);
  jar = org.owner.jar;
  known = await seedRecords(org.owner);
  const doc = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(doc.statusCode).toBe(200);
  operations = operationsOf(doc.json())
    // The network emulators are development tools with the networks' own formats, not Herald's API.
    .filter((op) => !op.path.startsWith('/api/sandbox/'))
    .sort((a, b) => Number(RUN_LAST.has(keyOf(a))) - Number(RUN_LAST.has(keyOf(b))));
}, 180_000);
afterAll(() => t?.close());

function readBody(stream: Readable, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      stream.destroy();
      reject(new Error(`body not finished within ${timeoutMs} ms`));
    }, timeoutMs);
    stream.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
    stream.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    stream.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    });
  });
}

/** Sends one request with `app.inject`; rejects when it is not answered in time. */
async function inject(app: FastifyInstance, cookies: CookieJar, req: FuzzRequest): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)),
      REQUEST_TIMEOUT_MS,
    );
  });
  try {
    const res = await Promise.race([
      send(app, cookies, {
        method: req.method as 'GET',
        url: req.url,
        headers: { origin: TEST_PUBLIC_URL, ...req.headers },
        ...(req.payload !== undefined ? { payload: req.payload } : {}),
        payloadAsStream: true,
      }),
      timeout,
    ]);
    const stream = res.stream();
    // An event stream that started is a success: it stays open by design.
    if (String(res.headers['content-type']).startsWith('text/event-stream')) {
      stream.destroy();
      return { status: res.statusCode, headers: res.headers, body: '' };
    }
    const body = await readBody(stream, REQUEST_TIMEOUT_MS);
    return { status: res.statusCode, headers: res.headers, body };
  } finally {
    clearTimeout(timer);
  }
}

const show = (req: FuzzRequest) =>
  `${req.method} ${req.url.length > 160 ? `${req.url.slice(0, 160)}…` : req.url} [${req.label}]`;

describe('fuzzing every operation of the OpenAPI document', () => {
  it('answers every generated request with a 4xx envelope or a documented success, in time', async () => {
    expect(operations.length).toBeGreaterThan(50);
    const failures: string[] = [];
    let sent = 0;
    for (const op of operations) {
      const prng = new Prng(seedOf(keyOf(op), SEED));
      for (const req of generateRequests(op, { orgId, prng, known }, BUDGET)) {
        const cookies = ENDS_SESSION.has(keyOf(op)) ? (await signIn(t.app, EMAIL)).jar : jar;
        sent++;
        try {
          const answer = await inject(t.app, cookies, req);
          if (LOG) appendFileSync(LOG, `${answer.status} ${show(req)}\n`);
          const problem = answerProblem(op, answer, {
            foreignFormat: FOREIGN_FORMAT.some((re) => re.test(op.path)),
          });
          if (problem) failures.push(`${show(req)}: ${problem}`);
        } catch (err) {
          failures.push(`${show(req)}: ${(err as Error).message}`);
        }
      }
      // No request may cost the actor their session (that would hide every later failure).
      const me = await send(t.app, jar, { method: 'GET', url: '/api/auth/me' });
      if (me.statusCode !== 200) {
        failures.push(
          `${keyOf(op)}: the session was lost (/api/auth/me answered ${me.statusCode})`,
        );
        jar = (await signIn(t.app, EMAIL)).jar;
      }
    }
    // Prototype-pollution keys must not have reached Object.prototype.
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(sent).toBeGreaterThanOrEqual(operations.length * Math.min(BUDGET, 2));
    expect(failures, `${failures.length} of ${sent} requests failed`).toEqual([]);
  }, 600_000);

  // What `app.inject` cannot send: bytes exactly as given on a real socket (percent-encodings
  // left broken, oversized headers), through Node's HTTP parser.
  it('answers raw requests with broken encodings and oversized headers with the envelope', async () => {
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as AddressInfo;
    const failures: string[] = [];
    let sent = 0;
    for (const op of operations) {
      const prng = new Prng(seedOf(`raw ${keyOf(op)}`, SEED));
      const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
        name === 'orgId' ? orgId : prng.uuid(),
      );
      const firstParam = /\{([^}]+)\}/.exec(op.path)?.[1];
      const cases: Array<[string, string, string]> = [
        [
          'bad encoding in the path',
          firstParam
            ? op.path.replace(/\{([^}]+)\}/g, (_m, name: string) =>
                name === firstParam ? `a${prng.pick(['%C0%AE', '%', '%zz', '%E0%A4%A'])}` : orgId,
              )
            : `${path}/%C0%AE`,
          '',
        ],
        ['bad encoding in the query', `${path}?${prng.pick(['q=%', '%C0%AE=1', 'a=%zz&a=%'])}`, ''],
        ['duplicate query parameters', `${path}?page=1&page=2&pageSize=x&pageSize=5`, ''],
        ['oversized headers', path, `X-Fuzz: ${'h'.repeat(prng.pick([17_000, 70_000]))}\r\n`],
      ];
      for (const [label, target, extra] of cases) {
        const cookies = ENDS_SESSION.has(keyOf(op)) ? (await signIn(t.app, EMAIL)).jar : jar;
        const head =
          `${op.method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
          `Origin: ${TEST_PUBLIC_URL}\r\nCookie: ${cookies.header()}\r\n${extra}Content-Length: 0`;
        sent++;
        const show = `${op.method} ${target.slice(0, 120)} [${label}]`;
        try {
          const answer = await rawRequest(port, head, REQUEST_TIMEOUT_MS);
          if (LOG) appendFileSync(LOG, `${answer.status} ${show} (socket)\n`);
          const problem = answerProblem(op, answer, {
            foreignFormat: FOREIGN_FORMAT.some((re) => re.test(op.path)),
          });
          if (problem) failures.push(`${show}: ${problem}`);
        } catch (err) {
          failures.push(`${show}: ${(err as Error).message}`);
        }
      }
    }
    const me = await send(t.app, jar, { method: 'GET', url: '/api/auth/me' });
    expect(me.statusCode, 'the session survived the raw requests').toBe(200);
    expect(sent).toBe(operations.length * 4);
    expect(failures, `${failures.length} of ${sent} raw requests failed`).toEqual([]);
  }, 300_000);
});
