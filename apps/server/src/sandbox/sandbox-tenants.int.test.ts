import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INBOX_IMPORT_QUEUE, INBOX_WEBHOOK_QUEUE } from '../modules/inbox/inbox-queue.js';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../test/app.js';
import { users } from '../db/schema.js';
import { createOrg, signIn, type Actor } from '../test/factories.js';
import { connectThroughSandbox, readForm } from '../test/networks.js';

/**
 * The sandboxes are shared by every organization of the server: their control routes act only on
 * the caller's organization's accounts, they deliver only to Herald's own receivers, and each
 * network's sandbox app signs with its own secret.
 */
let t: TestApp;
let acme: { owner: Actor; orgId: string };
let rival: { owner: Actor; orgId: string };
let pageId = '';

/** A listener of the tester's: it records every request it gets. */
let listener: Server;
let listenerUrl = '';
const heard: string[] = [];

const origin = { origin: TEST_PUBLIC_URL };

async function emu(
  actor: Actor | null,
  slug: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  payload?: object,
) {
  const res = await t.app.inject({
    method,
    url: `/api/sandbox/${slug}/_emu/${path}`,
    headers: { ...(actor ? { cookie: actor.jar.header() } : {}), ...origin },
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() as any };
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < 100; i++) {
    last = await read();
    if (ok(last)) return last;
    await sleep(100);
  }
  throw new Error(`Never happened; last: ${JSON.stringify(last)}`);
}

beforeAll(async () => {
  listener = createServer((req, res) => {
    heard.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/hook`;

  t = await createTestApp({}, { jobs: 'all', queues: [INBOX_IMPORT_QUEUE, INBOX_WEBHOOK_QUEUE] });
  acme = await createOrg(t.app, 'owner@acme.test', 'Acme');
  rival = await createOrg(t.app, 'owner@rival.test', 'Rival');
  const done = await connectThroughSandbox(t.app, acme.owner, 'facebook', acme.orgId, {
    account: 'acme_person',
    fields: { pages: 'Acme Page' },
  });
  expect(new URL(done).searchParams.get('connected')).toBeTruthy();
  const integrations = await send(t.app, acme.owner.jar, {
    method: 'GET',
    url: `/api/organizations/${acme.orgId}/integrations`,
  });
  pageId = integrations.json().data.platforms[0].platformAccountId;
  // The first import subscribes the app to the Page's webhooks.
  await eventually(
    async () =>
      (
        await send(t.app, acme.owner.jar, {
          method: 'GET',
          url: `/api/organizations/${acme.orgId}/inbox/summary`,
        })
      ).json(),
    (r: any) => r.data.accounts.some((a: any) => a.lastSyncedAt),
  );
  const dm = await emu(acme.owner, 'facebook', 'POST', 'inbox/messages', {
    to: pageId,
    fromName: 'Customer',
    text: 'My order number is 4242',
  });
  expect(dm.status).toBe(201);
  await emu(acme.owner, 'facebook', 'POST', 'webhooks/flush');
}, 90_000);

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => listener?.close(resolve));
});

describe('sandbox control routes, per organization', () => {
  it('answer 401 without a session', async () => {
    for (const [method, path] of [
      ['GET', 'webhooks'],
      ['POST', 'webhooks'],
      ['GET', 'inbox/sent'],
      ['DELETE', 'webhooks'],
    ] as const) {
      const res = await emu(null, 'facebook', method, path, method === 'POST' ? {} : undefined);
      expect(res.status, `${method} ${path}`).toBe(401);
    }
  });

  it("show an organization its accounts' webhook deliveries, and another organization none of them", async () => {
    const own = await emu(acme.owner, 'facebook', 'GET', 'webhooks');
    expect(own.status).toBe(200);
    expect(JSON.stringify(own.body.deliveries)).toContain('My order number is 4242');

    const other = await emu(rival.owner, 'facebook', 'GET', 'webhooks');
    expect(other.status).toBe(200);
    expect(JSON.stringify(other.body)).not.toContain('4242');
    expect(other.body.deliveries).toEqual([]);
  });

  it("refuse another organization's accounts: messages, knobs, posts, sent messages, calls", async () => {
    const dm = await emu(rival.owner, 'facebook', 'POST', 'inbox/messages', {
      to: pageId,
      fromName: 'Intruder',
      text: 'Not yours',
    });
    expect(dm.status).toBe(404);
    const knob = await emu(rival.owner, 'facebook', 'POST', 'scenario', {
      account: pageId,
      knob: 'token_revoked',
      on: true,
    });
    expect(knob.status).toBe(404);
    const sent = await emu(rival.owner, 'facebook', 'GET', `inbox/sent?account=${pageId}`);
    expect(sent.body.messages).toEqual([]);
    const calls = await emu(rival.owner, 'facebook', 'GET', 'calls');
    expect(calls.body.calls).toEqual([]);
    // The owner still reaches them (the refusals above are about who asks).
    const ownCalls = await emu(acme.owner, 'facebook', 'GET', 'calls');
    expect(ownCalls.body.calls.length).toBeGreaterThan(0);
    const ownKnob = await emu(acme.owner, 'facebook', 'GET', `scenario?account=${pageId}`);
    expect(ownKnob.status).toBe(200);
  });

  it('refuse to act for an organization the caller is not a member of', async () => {
    const res = await emu(rival.owner, 'facebook', 'GET', `webhooks?organizationId=${acme.orgId}`);
    expect(res.status).toBe(403);
    const repeated = await emu(
      rival.owner,
      'facebook',
      'GET',
      `webhooks?organizationId=${rival.orgId}&organizationId=${acme.orgId}`,
    );
    expect(repeated.status).toBe(400);
  });

  it("keep another organization's deliveries when one forgets its own", async () => {
    expect((await emu(rival.owner, 'facebook', 'DELETE', 'webhooks')).status).toBe(200);
    const own = await emu(acme.owner, 'facebook', 'GET', 'webhooks');
    expect(JSON.stringify(own.body.deliveries)).toContain('My order number is 4242');
  });

  it("leave the emulator's shared clock to operators", async () => {
    const res = await emu(acme.owner, 'x', 'POST', 'clock', { advance_seconds: 60 });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/platform operator/);
  });

  it("leave the Threads app's one webhook to operators, as X's", async () => {
    const callbackUrl = `${TEST_PUBLIC_URL}/api/webhooks/threads`;
    const res = await emu(acme.owner, 'threads', 'POST', 'webhooks', {
      callbackUrl,
      verifyToken: 'guessed',
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/only a platform operator may change it/);
  });
});

/** A platform operator who belongs to no organization (created on first use). */
let operatorActor: Promise<Actor> | undefined;
function operator() {
  operatorActor ??= (async () => {
    const email = 'operator@sandbox-tenants.test';
    await t.database.db.insert(users).values({ email, isAdmin: true, emailVerified: true });
    return signIn(t.app, email);
  })();
  return operatorActor;
}

/** The consent page Herald's connect flow opens for `actor`: its path and HTML. */
async function consentPage(actor: Actor, slug: string, orgId: string) {
  const start = await send(t.app, actor.jar, {
    method: 'GET',
    url: `/api/auth/${slug}?orgId=${orgId}`,
  });
  const location = new URL(start.headers.location as string, TEST_PUBLIC_URL);
  const path = `${location.pathname}${location.search}`;
  const page = await send(t.app, actor.jar, { method: 'GET', url: path });
  expect(page.statusCode).toBe(200);
  return { path, html: page.body };
}

/** The consent form of `page` approved as `account`, without any session cookie. */
async function approveSignedOut(page: { path: string; html: string }, account: string) {
  const form = readForm(page.html);
  return t.app.inject({
    method: 'POST',
    url: new URL(form.action, `${TEST_PUBLIC_URL}${page.path}`).pathname,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...origin },
    payload: new URLSearchParams({ ...form.fields, account, decision: 'approve' }).toString(),
  });
}

const TAKEN = /This sandbox account is connected by another organization; choose another name\./;
const connected = (done: string) => new URL(done).searchParams.get('connected');

describe('sandbox consent pages, per organization', () => {
  beforeAll(async () => {
    const done = await connectThroughSandbox(t.app, acme.owner, 'x', acme.orgId, {
      account: 'acme_x',
    });
    expect(connected(done)).toBeTruthy();
  });

  it("offer a person only their organizations' accounts", async () => {
    const own = await consentPage(acme.owner, 'x', acme.orgId);
    expect(readForm(own.html).fields.account).toBe('acme_x');
    const other = await consentPage(rival.owner, 'x', rival.orgId);
    expect(other.html).not.toContain('acme_x');
    expect(readForm(other.html).fields.account).toBe('sandbox_user');
    const anonymous = await t.app.inject({ method: 'GET', url: other.path });
    expect(anonymous.body).not.toContain('acme_x');

    const meta = await consentPage(rival.owner, 'facebook', rival.orgId);
    expect(meta.html).not.toContain('acme_person');
    expect(meta.html).not.toContain('Acme Page');
  });

  it("refuse signing in as another organization's account, by its name or ids made from names", async () => {
    for (const account of ['acme_x', 'Acme X'])
      await expect(
        connectThroughSandbox(t.app, rival.owner, 'x', rival.orgId, { account }),
      ).rejects.toThrow(TAKEN);
    await expect(
      connectThroughSandbox(t.app, rival.owner, 'facebook', rival.orgId, {
        account: 'acme_person',
        fields: { pages: 'Rival Page' },
      }),
    ).rejects.toThrow(TAKEN);
    // Signed out, no organization is the person's.
    const page = await consentPage(rival.owner, 'x', rival.orgId);
    const anonymous = await approveSignedOut(page, 'acme_x');
    expect(anonymous.statusCode).toBe(400);
    expect(anonymous.body).toMatch(TAKEN);

    // An Instagram account's id comes from its username alone.
    const gram = await connectThroughSandbox(t.app, acme.owner, 'instagram', acme.orgId, {
      account: 'acme_person',
      fields: { pages: 'Acme Page', instagram: 'acme.gram' },
    });
    expect(connected(gram)).toBeTruthy();
    await expect(
      connectThroughSandbox(t.app, rival.owner, 'instagram', rival.orgId, {
        account: 'rival_person',
        fields: { pages: 'Rival Page', instagram: 'acme.gram' },
      }),
    ).rejects.toThrow(TAKEN);

    // The account's own organization connects it again, and a new name is anyone's.
    const again = await connectThroughSandbox(t.app, acme.owner, 'x', acme.orgId, {
      account: 'acme_x',
    });
    expect(connected(again)).toBeTruthy();
    const fresh = await connectThroughSandbox(t.app, rival.owner, 'x', rival.orgId, {
      account: 'rival_x',
    });
    expect(connected(fresh)).toBeTruthy();
  });

  it('keep a knob set before connecting for the organization that set it', async () => {
    // Another organization lays a failure in wait on a name nobody connected yet…
    const laid = await emu(rival.owner, 'facebook', 'POST', 'scenario', {
      account: 'acme_later',
      knob: 'token_revoked',
      on: true,
    });
    expect(laid.status).toBe(200);
    // …which does not reach the organization that connects it.
    const done = await connectThroughSandbox(t.app, acme.owner, 'facebook', acme.orgId, {
      account: 'acme_later',
      fields: { pages: 'Acme Later Page' },
    });
    expect(connected(done), done).toBeTruthy();
    const seen = await emu(acme.owner, 'facebook', 'GET', 'scenario?account=acme_later');
    expect(seen.body.knobs).toEqual({});

    // An organization's own knob, set before connecting, is in force for it.
    const own = await emu(acme.owner, 'facebook', 'POST', 'scenario', {
      account: 'acme_doomed',
      knob: 'token_revoked',
      on: true,
    });
    expect(own.status).toBe(200);
    // Another organization cannot take it back.
    const undone = await emu(rival.owner, 'facebook', 'POST', 'scenario', {
      account: 'acme_doomed',
      knob: 'token_revoked',
      on: false,
    });
    expect(undone.status).toBe(404);
    const doomed = await connectThroughSandbox(t.app, acme.owner, 'facebook', acme.orgId, {
      account: 'acme_doomed',
      fields: { pages: 'Acme Doomed Page' },
    });
    expect(new URL(doomed).searchParams.get('connectError'), doomed).toBeTruthy();
  });
});

describe('sandbox callbacks', () => {
  it('take only Herald’s own receiver as a callback URL and never fetch another', async () => {
    heard.length = 0;
    const threads = await emu(await operator(), 'threads', 'POST', 'webhooks', {
      callbackUrl: listenerUrl,
      verifyToken: 'anything',
    });
    expect(threads.status).toBe(400);
    expect(threads.body.message).toContain(`${TEST_PUBLIC_URL}/api/webhooks/threads`);
    const meta = await emu(acme.owner, 'facebook', 'POST', 'webhooks', {
      callbackUrl: listenerUrl,
    });
    expect(meta.status).toBe(400);
    const sneaky = await emu(acme.owner, 'facebook', 'POST', 'webhooks', {
      callbackUrl: `${TEST_PUBLIC_URL.replace('//', '//user@')}/api/webhooks/meta/../../../hook`,
    });
    expect(sneaky.status).toBe(400);
    const dm = await emu(acme.owner, 'facebook', 'POST', 'inbox/messages', {
      to: pageId,
      fromName: 'Customer',
      text: 'Still there?',
    });
    expect(dm.status).toBe(201);
    await emu(acme.owner, 'facebook', 'POST', 'webhooks/flush');
    const log = await emu(acme.owner, 'facebook', 'GET', 'webhooks');
    expect(log.body.callbackUrl).toBe(`${TEST_PUBLIC_URL}/api/webhooks/meta`);
    expect(heard).toEqual([]);
  });

  it('register only Herald’s own receiver as the X app’s webhook, without a CRC elsewhere', async () => {
    heard.length = 0;
    const x = t.networks.get('x')!.client;
    const basic = Buffer.from(`${x.clientId}:${x.clientSecret}`).toString('base64');
    const token = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/x/oauth2/token',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=client_credentials',
    });
    expect(token.statusCode).toBe(200);
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/x/2/webhooks',
      headers: { authorization: `Bearer ${token.json().access_token}` },
      payload: { url: listenerUrl },
    });
    expect(register.statusCode).toBe(400);
    expect(register.body).toContain(`${TEST_PUBLIC_URL}/api/webhooks/x`);
    expect(heard).toEqual([]);
  });
});

describe("each network's sandbox app", () => {
  const metaSignature = (secret: string, body: string) =>
    `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  const xSignature = (secret: string, body: string) =>
    `sha256=${createHmac('sha256', secret).update(body).digest('base64')}`;
  const secretOf = (slug: string) => t.networks.get(slug)!.client.clientSecret;

  it('has its own secret (Facebook and Instagram share Meta’s one app)', () => {
    expect(secretOf('x')).not.toBe(secretOf('facebook'));
    expect(secretOf('threads')).not.toBe(secretOf('facebook'));
    expect(secretOf('instagram')).toBe(secretOf('facebook'));
  });

  it('signs deliveries the other networks’ receivers refuse', async () => {
    const meta = JSON.stringify({ object: 'page', entry: [] });
    const toMeta = (secret: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks/meta',
        headers: {
          'content-type': 'application/json',
          'x-hub-signature-256': metaSignature(secret, meta),
        },
        payload: meta,
      });
    expect((await toMeta(secretOf('x'))).statusCode).toBe(403);
    expect((await toMeta(secretOf('facebook'))).statusCode).toBe(200);

    const x = JSON.stringify({
      data: { event_type: 'dm.received', filter: { user_id: '1' }, payload: {} },
    });
    const toX = (secret: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks/x',
        headers: {
          'content-type': 'application/json',
          'x-twitter-webhooks-signature': xSignature(secret, x),
        },
        payload: x,
      });
    expect((await toX(secretOf('facebook'))).statusCode).toBe(403);
    expect((await toX(secretOf('x'))).statusCode).toBe(200);
  });
});
