import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_CLIENT_ID } from '../../platforms/runtime.js';
import { mountSandboxes, SANDBOXES } from '../../sandbox/index.js';
import { WHOLE_SANDBOX, WHOLE_SANDBOX_SIGNER } from '../../sandbox/kit/tenant.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../app.js';
import { type Actor, createOrg } from '../factories.js';
import { connectThroughSandbox } from '../networks.js';
import {
  BAD_ENCODINGS,
  HOSTILE_STRINGS,
  HOSTILE_VALUES,
  HUGE,
  PROTO_BODIES,
  PROTO_QUERIES,
} from './generate.js';
import { Prng, seedOf } from './prng.js';

// `npm run test:fuzz`, the network emulators' control routes (`/api/sandbox/{slug}/_emu/…`):
// not in the OpenAPI document (they speak for the networks, in their formats), so they are read
// from the emulators themselves. Each gets repeated parameters, huge and odd values, broken
// encodings and bodies that are not JSON, from a signed-in operator whose organization connected
// accounts there. Any 5xx, or a request unanswered within REQUEST_TIMEOUT_MS, fails.

const SEED = Number(process.env.FUZZ_SEED ?? 15);
const BUDGET = Number(process.env.FUZZ_BUDGET ?? 30);
const REQUEST_TIMEOUT_MS = 10_000;
const EMAIL = 'sandbox.fuzzer@fuzz.test';

/** Every field the control routes read, to give each a value it does not expect. */
const FIELDS = [
  'account',
  'knob',
  'on',
  'value',
  'fromName',
  'text',
  'texts',
  'message',
  'postId',
  'parentId',
  'to',
  'attachments',
  'messageId',
  'inComment',
  'callbackUrl',
  'verifyToken',
  'release',
  'advance_seconds',
  'delayMs',
  'likes',
  'organization',
];
/** Query parameters the control routes read. */
const PARAMS = ['account', 'path', 'organizationId', 'notice', 'replies', 'author'];

interface SandboxRoute {
  method: string;
  url: string;
}

let t: TestApp;
let fuzzer: Actor;
let orgId: string;
let routes: SandboxRoute[];
/** Ids and names of the fuzzer's sandbox accounts and posts, for values that reach further. */
const known: string[] = ['fuzz_x', 'fuzz_threads', 'Fuzz Page', 'fuzz_person'];

/** The control routes of every emulator, read from the emulators as the server mounts them. */
async function controlRoutes(): Promise<SandboxRoute[]> {
  const probe = Fastify({ logger: false });
  const found: SandboxRoute[] = [];
  probe.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.includes('/_emu/') || route.config?.access === 'public') return;
    for (const method of [route.method].flat())
      if (method !== 'HEAD') found.push({ method, url: route.url });
  });
  await mountSandboxes(probe, Object.keys(SANDBOXES), {
    db: t.database.db,
    apiBasePath: '/api',
    publicBase: (slug) => `${TEST_PUBLIC_URL}/api/sandbox/${slug}`,
    heraldApi: `${TEST_PUBLIC_URL}/api`,
    clientId: SANDBOX_CLIENT_ID,
    clientSecret: () => 'unused',
    tenantOf: () => async () => WHOLE_SANDBOX,
    signerOf: () => async () => WHOLE_SANDBOX_SIGNER,
  });
  await probe.close();
  return found;
}

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: EMAIL, RATE_LIMIT_WRITES_PER_MINUTE: '100000' });
  ({ owner: fuzzer, orgId } = await createOrg(t.app, EMAIL, 'Sandbox Fuzz Co'));
  for (const [slug, account, fields] of [
    ['x', 'fuzz_x', {}],
    ['threads', 'fuzz_threads', {}],
    ['facebook', 'fuzz_person', { pages: 'Fuzz Page' }],
  ] as const) {
    const done = await connectThroughSandbox(t.app, fuzzer, slug, orgId, { account, fields });
    expect(done).toContain('connected=');
  }
  const integrations = await fuzzer.call('GET', `/api/organizations/${orgId}/integrations`);
  for (const i of integrations.body.data.platforms as Array<{ platformAccountId: string }>)
    known.push(i.platformAccountId);
  routes = await controlRoutes();
}, 180_000);
afterAll(() => t?.close());

interface SandboxRequest {
  label: string;
  url: string;
  body?: string | Buffer;
  contentType?: string;
}

/** Percent-encodes; a lone surrogate (which cannot be) becomes the bytes a sloppy client sends. */
const enc = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
};

/** One request for `route`: its path filled in, and a query and a body chosen to be hostile. */
function generate(route: SandboxRoute, prng: Prng): SandboxRequest {
  const odd = () => String(prng.pick(HOSTILE_STRINGS));
  const anyValue = () =>
    prng.pick<unknown>([...HOSTILE_VALUES, prng.pick(HOSTILE_STRINGS), prng.pick(known)]);
  let path = route.url.replace(/:(\w+)/g, () =>
    prng.chance(0.3) ? prng.pick(BAD_ENCODINGS) : enc(prng.chance(0.5) ? odd() : prng.pick(known)),
  );
  if (path.includes('*')) path = path.replace('*', enc(odd()));
  const queries: Array<[string, () => string]> = [
    ['no query', () => ''],
    [
      'repeated parameters',
      () =>
        PARAMS.flatMap((p) => [`${p}=${enc(prng.pick(known))}`, `${p}=${enc(odd())}`]).join('&'),
    ],
    ['repeated organizationId', () => `organizationId=${orgId}&organizationId=${prng.uuid()}`],
    ['another organization', () => `organizationId=${prng.uuid()}`],
    ['huge value', () => `${prng.pick(PARAMS)}=${HUGE}`],
    ['odd value', () => `${prng.pick(PARAMS)}=${enc(odd())}`],
    ['bad encoding', () => `${prng.pick(PARAMS)}=${prng.pick(BAD_ENCODINGS)}`],
    ['prototype keys', () => prng.pick(PROTO_QUERIES)],
    ['nested query', () => `${prng.pick(PARAMS)}[a][b]=1&${prng.pick(PARAMS)}[]=2`],
  ];
  const [queryLabel, makeQuery] = prng.pick(queries);
  const query = makeQuery();
  const url = `${path}${query ? `?${query}` : ''}`;
  const request: SandboxRequest = { label: queryLabel, url };
  if (route.method === 'GET') return request;

  const record = () =>
    Object.fromEntries(
      FIELDS.filter(() => prng.chance(0.5)).map((f) => [
        f,
        prng.chance(0.4) ? prng.pick(known) : anyValue(),
      ]),
    );
  const bodies: Array<[string, () => Omit<SandboxRequest, 'label' | 'url'>]> = [
    ['no body', () => ({})],
    ['fields of odd values', () => ({ body: JSON.stringify(record()), contentType: 'json' })],
    [
      'huge field',
      () => ({ body: JSON.stringify({ [prng.pick(FIELDS)]: HUGE }), contentType: 'json' }),
    ],
    [
      'JSON that is not an object',
      () => ({
        body: prng.pick(['null', '1', '"text"', '[]', '[{}]', 'true', '1e999']),
        contentType: 'json',
      }),
    ],
    [
      'not JSON at all',
      () => ({
        body: prng.pick(['{', 'not json', '[1,', '\u0000', '{"a":}', HUGE]),
        contentType: 'json',
      }),
    ],
    ['prototype keys', () => ({ body: prng.pick(PROTO_BODIES), contentType: 'json' })],
    [
      'repeated form fields',
      () => ({
        body: FIELDS.filter(() => prng.chance(0.5))
          .flatMap((f) => [`${f}=${enc(prng.pick(known))}`, `${f}=${enc(odd())}`])
          .join('&'),
        contentType: 'application/x-www-form-urlencoded',
      }),
    ],
    [
      'form with broken encoding',
      () => ({
        body: `${prng.pick(FIELDS)}=${prng.pick(BAD_ENCODINGS)}&%zz=1`,
        contentType: 'application/x-www-form-urlencoded',
      }),
    ],
    ['plain text', () => ({ body: odd(), contentType: 'text/plain' })],
    [
      'bytes',
      () => ({
        body: Buffer.from(Array.from({ length: 64 }, () => prng.int(0, 255))),
        contentType: 'application/octet-stream',
      }),
    ],
  ];
  const [bodyLabel, body] = prng.pick(bodies);
  return { ...request, ...body(), label: `${queryLabel}, ${bodyLabel}` };
}

async function sendOne(method: string, req: SandboxRequest) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)),
      REQUEST_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      send(t.app, fuzzer.jar, {
        method: method as 'POST',
        url: req.url,
        headers: {
          origin: TEST_PUBLIC_URL,
          ...(req.contentType
            ? {
                'content-type': req.contentType === 'json' ? 'application/json' : req.contentType,
              }
            : {}),
        },
        ...(req.body !== undefined ? { payload: req.body } : {}),
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe("fuzzing the network sandboxes' control routes", () => {
  it('answers every generated request below 500, in time', async () => {
    // Every emulator has its scenario, call log and clock routes, and more of its own.
    expect(routes.length).toBeGreaterThan(Object.keys(SANDBOXES).length * 5);
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes) {
      const prng = new Prng(seedOf(`${route.method} ${route.url}`, SEED));
      for (let i = 0; i < BUDGET; i++) {
        const req = generate(route, prng);
        const show = `${route.method} ${req.url.slice(0, 140)} [${req.label}]`;
        sent++;
        try {
          const res = await sendOne(route.method, req);
          if (res.statusCode >= 500)
            failures.push(`${show}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        } catch (err) {
          failures.push(`${show}: ${(err as Error).message}`);
        }
      }
    }
    // No request may cost the fuzzer their session, nor reach Object.prototype.
    const me = await send(t.app, fuzzer.jar, { method: 'GET', url: '/api/auth/me' });
    expect(me.statusCode).toBe(200);
    expect(Object.prototype).not.toHaveProperty('polluted');
    expect(sent).toBe(routes.length * BUDGET);
    expect(failures, `${failures.length} of ${sent} requests failed`).toEqual([]);
  }, 600_000);
});
