import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posts } from '../../db/schema.js';
import { createTestApp, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { dm, FakeInbox, seedAccount, useFakeInbox } from '../../test/inbox-fake.js';
import { connectThroughSandbox } from '../../test/networks.js';
import { upsertInboxEvents } from '../inbox/inbox-ingest.js';

let t: TestApp;
let owner: Actor;
let orgId: string;
let accountId: string;
let endpoint: URL;
const clients: Client[] = [];

const WRITE_PERMISSIONS = ['post:create', 'post:edit', 'post:delete', 'analytics:view'];
/** A key whose permission opens none of the tools' routes: the member-level reads only. */
const READ_ONLY = ['member:invite'];

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, orgId } = await createOrg(t.app, 'mcp.owner@example.com', 'Agentic Co'));
  await connectThroughSandbox(t.app, owner, 'x', orgId);
  const listed = await owner.call('GET', `/api/organizations/${orgId}/integrations`);
  accountId = listed.body.data.platforms[0].id;
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = t.app.server.address() as { port: number };
  endpoint = new URL(`http://127.0.0.1:${port}/api/mcp`);
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t.close();
});

async function createKey(permissions: string[], actor = owner, org = orgId) {
  const res = await actor.call('POST', `/api/organizations/${org}/api-keys`, {
    name: 'Claude',
    permissions,
  });
  expect(res.status).toBe(201);
  return res.body.data as { key: string; apiKey: { id: string } };
}

/** The official SDK's client over Streamable HTTP, with the key in the Authorization header. */
async function connect(key: string) {
  const client = new Client({ name: 'herald-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A raw JSON-RPC POST, for what the SDK's client never sends. */
async function rpc(body: unknown, headers: Record<string, string> = {}, url = endpoint) {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as any) : null };
}

const countPosts = async () =>
  (await t.database.db.select().from(posts).where(eq(posts.organizationId, orgId))).length;

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

describe('MCP endpoint with the official SDK client', () => {
  it('initializes and lists only the tools the key’s permissions allow', async () => {
    const full = await connect((await createKey(WRITE_PERMISSIONS)).key);
    expect(full.getServerVersion()).toMatchObject({ name: 'herald' });
    const { tools } = await full.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual([
      'list_accounts',
      'list_posts',
      'get_post',
      'create_post',
      'schedule_post',
      'add_to_queue',
      'update_post',
      'delete_post',
      'publish_now',
      'get_analytics',
    ]);
    const remove = tools.find((tool) => tool.name === 'delete_post')!;
    expect(remove.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    const read = tools.find((tool) => tool.name === 'list_posts')!;
    expect(read.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(read.outputSchema).toMatchObject({ type: 'object' });
    expect(tools.find((tool) => tool.name === 'create_post')!.inputSchema).toMatchObject({
      required: ['integrationIds', 'content'],
    });

    const readOnly = await connect((await createKey(READ_ONLY)).key);
    const readable = (await readOnly.listTools()).tools.map((tool) => tool.name);
    expect(readable).toEqual(['list_accounts', 'list_posts', 'get_post']);
    // A tool the key may not call is refused as the REST route would refuse it.
    const refused = await readOnly.callTool({
      name: 'create_post',
      arguments: { integrationIds: [accountId], content: 'No way' },
    });
    expect(refused.isError).toBe(true);
    expect((refused.content as Array<{ text: string }>)[0]!.text).toBe(
      'This API key does not allow this: it needs the "Create Posts" permission (post:create).',
    );
  });

  it('gives the accounts with the organization’s time zone and the time now', async () => {
    const client = await connect((await createKey(READ_ONLY)).key);
    const answer = await client.callTool({ name: 'list_accounts', arguments: {} });
    expect(answer.isError).toBeFalsy();
    const data = answer.structuredContent as any;
    expect(data.organization.name).toBe('Agentic Co');
    expect(data.accounts.map((a: { id: string }) => a.id)).toEqual([accountId]);
    expect(typeof data.timeZone).toBe('string');
    expect(Math.abs(Date.parse(data.now) - Date.now())).toBeLessThan(3_600_000);
    expect(data.localNow).toMatch(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2} \(\w+day\)$/,
    );
  });

  it('creates a draft by default, reads it back and schedules it, attributed to the key', async () => {
    const { key, apiKey } = await createKey(WRITE_PERMISSIONS);
    const client = await connect(key);
    const created = await client.callTool({
      name: 'create_post',
      arguments: { integrationIds: [accountId], content: 'Hello from an agent' },
    });
    expect(created.isError).toBeFalsy();
    const post = (created.structuredContent as any).post;
    expect(post).toMatchObject({
      status: 'draft',
      scheduledAt: null,
      content: 'Hello from an agent',
    });
    expect((created.content as Array<{ text: string }>)[0]!.text).toContain('draft');

    const read = await client.callTool({ name: 'get_post', arguments: { postId: post.id } });
    expect((read.structuredContent as any).post).toMatchObject({
      id: post.id,
      content: 'Hello from an agent',
    });
    const [row] = await t.database.db.select().from(posts).where(eq(posts.id, post.id));
    expect(row!.createdByApiKeyId).toBe(apiKey.id);

    const at = inAnHour();
    const scheduled = await client.callTool({
      name: 'schedule_post',
      arguments: { postId: post.id, scheduledAt: at },
    });
    expect(scheduled.isError).toBeFalsy();
    expect((scheduled.structuredContent as any).post).toMatchObject({
      status: 'scheduled',
      scheduledAt: new Date(at).toISOString(),
    });
  });

  it('answers bad arguments and refusals with the REST sentence and changes nothing', async () => {
    const client = await connect((await createKey(WRITE_PERMISSIONS)).key);
    const before = await countPosts();
    const bad = await client.callTool({
      name: 'create_post',
      arguments: { integrationIds: ['not-an-id'], content: 'x' },
    });
    expect(bad.isError).toBe(true);
    expect((bad.content as Array<{ text: string }>)[0]!.text).toBe(
      'The arguments are invalid: integrationIds.0: Each account id must be the id of a connected account (a UUID).',
    );
    const past = await client.callTool({
      name: 'create_post',
      arguments: {
        integrationIds: [accountId],
        content: 'Too late',
        action: 'schedule',
        scheduledAt: '2020-01-01T10:00:00Z',
      },
    });
    expect(past.isError).toBe(true);
    expect((past.content as Array<{ text: string }>)[0]!.text).toBe(
      'The scheduled time has already passed. Pick a time in the future.',
    );
    expect(await countPosts()).toBe(before);
  });

  it('acts once for a replayed write with the same idempotency key', async () => {
    const client = await connect((await createKey(WRITE_PERMISSIONS)).key);
    const before = await countPosts();
    const call = () =>
      client.callTool({
        name: 'create_post',
        arguments: {
          integrationIds: [accountId],
          content: 'Exactly once',
          idempotencyKey: 'agent-retry-0001',
        },
      });
    const first = await call();
    const again = await call();
    expect(first.isError).toBeFalsy();
    expect((again.structuredContent as any).post.id).toBe((first.structuredContent as any).post.id);
    expect(await countPosts()).toBe(before + 1);
    // The same key with other arguments is refused rather than answered with the first result.
    const other = await client.callTool({
      name: 'create_post',
      arguments: {
        integrationIds: [accountId],
        content: 'Other',
        idempotencyKey: 'agent-retry-0001',
      },
    });
    expect(other.isError).toBe(true);
    expect(await countPosts()).toBe(before + 1);
  });

  it('publishes now only through the destructive tool, and says how it went', async () => {
    const client = await connect((await createKey(WRITE_PERMISSIONS)).key);
    const created = await client.callTool({
      name: 'create_post',
      arguments: { integrationIds: [accountId], content: 'Out right away' },
    });
    const { id } = (created.structuredContent as any).post;
    const published = await client.callTool({ name: 'publish_now', arguments: { postId: id } });
    expect(published.isError).toBeFalsy();
    expect(published.structuredContent).toMatchObject({ status: 'success' });
    const read = await client.callTool({ name: 'get_post', arguments: { postId: id } });
    expect((read.structuredContent as any).post.status).toBe('published');
  });

  it('answers an unknown tool as a JSON-RPC error', async () => {
    const client = await connect((await createKey(READ_ONLY)).key);
    await expect(client.callTool({ name: 'drop_tables', arguments: {} })).rejects.toThrow(
      /Unknown tool: drop_tables/,
    );
  });
});

describe('MCP endpoint access', () => {
  const init = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-03-26',
      capabilities: {},
      clientInfo: { name: 'old-client', version: '0.1' },
    },
  };

  it('refuses a revoked key with 401', async () => {
    const { key, apiKey } = await createKey(READ_ONLY);
    const client = await connect(key);
    const revoked = await owner.call('DELETE', `/api/organizations/${orgId}/api-keys/${apiKey.id}`);
    expect(revoked.status).toBe(200);
    // The SDK's transport error carries the HTTP status and Herald's sentence.
    await expect(client.listTools()).rejects.toMatchObject({
      code: 401,
      message: expect.stringMatching(/This API key was revoked/),
    });
    const res = await rpc(init, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(401);
    expect(res.body.message).toMatch(/revoked/);
  });

  it('takes no key in the URL and no cookie session', async () => {
    const { key } = await createKey(READ_ONLY);
    const inUrl = new URL(endpoint);
    inUrl.searchParams.set('apiKey', key);
    const res = await rpc(init, {}, inUrl);
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/never in the URL/);
    const both = await rpc(init, { authorization: `Bearer ${key}` }, inUrl);
    expect(both.status).toBe(400);
    const cookie = await rpc(init, { cookie: owner.jar.header() });
    expect(cookie.status).toBe(401);
  });

  it('refuses a browser Origin that is not Herald’s own', async () => {
    const { key } = await createKey(READ_ONLY);
    const foreign = await rpc(init, {
      authorization: `Bearer ${key}`,
      origin: 'https://evil.example',
    });
    expect(foreign.status).toBe(403);
    const own = await rpc(init, { authorization: `Bearer ${key}`, origin: TEST_PUBLIC_URL });
    expect(own.status).toBe(200);
  });

  it('answers GET with 405: there is no stream to open', async () => {
    const res = await fetch(endpoint, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers a client that takes only Server-Sent Events with a one-event stream', async () => {
    const { key } = await createKey(READ_ONLY);
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify(init),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    expect(text).toMatch(/^event: message\ndata: /);
    expect(JSON.parse(text.split('data: ')[1]!).result.protocolVersion).toBe('2025-03-26');
  });

  it('counts MCP requests toward the key’s per-minute allowance', async () => {
    const limited = await createTestApp(
      { RATE_LIMIT_API_KEY_PER_MINUTE: '2' },
      { database: t.database },
    );
    try {
      const { key } = await createKey(READ_ONLY);
      const post = () =>
        limited.app.inject({
          method: 'POST',
          url: '/api/mcp',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          payload: JSON.stringify(init),
        });
      expect((await post()).statusCode).toBe(200);
      expect((await post()).statusCode).toBe(200);
      const refused = await post();
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });

  it('speaks an older revision the client asks for, and refuses unknown ones', async () => {
    const { key } = await createKey(READ_ONLY);
    const auth = { authorization: `Bearer ${key}` };
    const answered = await rpc(init, auth);
    expect(answered.status).toBe(200);
    expect(answered.body.result.protocolVersion).toBe('2025-03-26');
    const future = await rpc(
      { ...init, params: { ...init.params, protocolVersion: '2031-01-01' } },
      auth,
    );
    expect(future.body.result.protocolVersion).toBe('2025-11-25');
    // Without the header a request is of 2025-03-26; an unknown header version is refused.
    const listed = await rpc({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, auth);
    expect(listed.body.result.tools.map((tool: { name: string }) => tool.name)).toContain(
      'get_post',
    );
    const unknown = await rpc(
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { ...auth, 'mcp-protocol-version': '2024-01-01' },
    );
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.data).toMatchObject({ requested: '2024-01-01' });
    const notification = await rpc({ jsonrpc: '2.0', method: 'notifications/initialized' }, auth);
    expect(notification.status).toBe(202);
  });

  it('serves 2026-07-28 requests that carry their version in _meta', async () => {
    const { key } = await createKey(READ_ONLY);
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const auth = { authorization: `Bearer ${key}`, 'mcp-protocol-version': '2026-07-28' };
    const discovered = await rpc(
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } },
      { ...auth, 'mcp-method': 'server/discover' },
    );
    expect(discovered.status).toBe(200);
    expect(discovered.body.result.supportedVersions).toContain('2025-06-18');
    const listed = await rpc(
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } },
      auth,
    );
    expect(listed.body.result.tools.length).toBeGreaterThan(0);
    const mismatch = await rpc(
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta } },
      { ...auth, 'mcp-protocol-version': '2025-06-18' },
    );
    expect(mismatch.status).toBe(400);
    const unknown = await rpc(
      { jsonrpc: '2.0', id: 4, method: 'resources/list', params: { _meta: meta } },
      auth,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe(-32601);
  });
});

describe('inbox tools', () => {
  const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

  it('lists conversations and replies exactly once per key, within the reply window', async () => {
    const fake = new FakeInbox();
    useFakeInbox(t, fake);
    const org = await createOrg(t.app, 'mcp.inbox@example.com', 'Inbox Agents');
    const page = await seedAccount(t.database.db, org.orgId, 'Facebook', 'mcp-page');
    const ingest = (events: Parameters<typeof upsertInboxEvents>[2]) =>
      upsertInboxEvents(
        t.database.db,
        { id: page.id, organizationId: org.orgId, platform: 'Facebook' },
        events,
      );
    await ingest([dm('old1', 'olga', ago(25 * 60), 'Anyone there?')]);
    await ingest([dm('new1', 'nina', ago(5), 'Where is my order?')]);
    const { key } = await createKey(['dm:view', 'dm:send'], org.owner, org.orgId);
    const client = await connect(key);

    const listed = await client.callTool({ name: 'list_conversations', arguments: {} });
    const conversations = (listed.structuredContent as any).conversations as Array<{
      id: string;
      title: string;
    }>;
    expect(conversations.map((c) => c.title)).toEqual(['Customer nina', 'Customer olga']);
    const [recent, old] = conversations;

    const reply = () =>
      client.callTool({
        name: 'reply_to_conversation',
        arguments: {
          conversationId: recent!.id,
          text: 'It ships today.',
          idempotencyKey: 'reply-key-0001',
        },
      });
    const first = await reply();
    expect(first.isError).toBeFalsy();
    const again = await reply();
    expect((again.structuredContent as any).message.id).toBe(
      (first.structuredContent as any).message.id,
    );
    expect(fake.sends).toHaveLength(1);

    const closed = await client.callTool({
      name: 'reply_to_conversation',
      arguments: { conversationId: old!.id, text: 'Sorry for the delay' },
    });
    expect(closed.isError).toBe(true);
    expect((closed.content as Array<{ text: string }>)[0]!.text).toMatch(/within 24 hours/);
    expect(fake.sends).toHaveLength(1);
  });
});

describe('account restrictions', () => {
  it('keeps a key of a member limited to some accounts to those accounts', async () => {
    const org = await createOrg(t.app, 'mcp.reach@example.com', 'Reach Agency');
    await connectThroughSandbox(t.app, org.owner, 'x', org.orgId);
    const mine = (await org.owner.call('GET', `/api/organizations/${org.orgId}/integrations`)).body
      .data.platforms[0].id as string;
    const other = (await seedAccount(t.database.db, org.orgId, 'X', 'mcp-globex', 'Globex')).id;
    const role = await org.owner.call('POST', `/api/organizations/${org.orgId}/roles`, {
      name: 'Client Manager',
      permissionIds: ['org:manage', 'post:create', 'post:edit', 'post:delete'],
    });
    const { actor: manager, memberId } = await addMember(
      t.app,
      org.owner,
      org.orgId,
      'mcp.reach.manager@example.com',
      { roleId: role.body.data.role.id },
    );
    const limited = await org.owner.call(
      'PUT',
      `/api/organizations/${org.orgId}/members/${memberId}/accounts`,
      { integrationIds: [mine] },
    );
    expect(limited.status).toBe(200);

    const owners = await connect((await createKey(WRITE_PERMISSIONS, org.owner, org.orgId)).key);
    const theirs = await owners.callTool({
      name: 'create_post',
      arguments: { integrationIds: [other], content: 'For Globex only' },
    });
    expect(theirs.isError).toBeFalsy();
    const theirId = (theirs.structuredContent as any).post.id as string;

    const client = await connect(
      (await createKey(['post:create', 'post:edit', 'post:delete'], manager, org.orgId)).key,
    );
    const accounts = await client.callTool({ name: 'list_accounts', arguments: {} });
    expect((accounts.structuredContent as any).accounts.map((a: { id: string }) => a.id)).toEqual([
      mine,
    ]);
    for (const [name, args] of [
      ['get_post', { postId: theirId }],
      ['delete_post', { postId: theirId }],
    ] as const) {
      const refused = await client.callTool({ name, arguments: args });
      expect(refused.isError).toBe(true);
      expect((refused.content as Array<{ text: string }>)[0]!.text).toBe(
        'This post does not exist in this organization.',
      );
    }
    const elsewhere = await client.callTool({
      name: 'create_post',
      arguments: { integrationIds: [other], content: 'Sneaky' },
    });
    expect(elsewhere.isError).toBe(true);
    const [row] = await t.database.db.select().from(posts).where(eq(posts.id, theirId));
    expect(row).toBeDefined();
  });
});
