import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHeraldClient } from '@herald/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './app.js';
import { createOrg } from './factories.js';
import { png } from './media-fixtures.js';
import { connectThroughSandbox } from './networks.js';
import { CLIENT_DIR, clientFiles, GENERATED_FILES, openApiDocument } from './openapi-client.js';

/**
 * The client package (packages/client): its committed types are those the contract generates
 * today, and it works against a real Herald server listening on a port, with an API key.
 */
describe('the generated client types', () => {
  it('are up to date with the contract (npm run client:generate writes them)', async () => {
    const files = await clientFiles(await openApiDocument());
    const committed = await readFile(`${CLIENT_DIR}src/schema.ts`, 'utf8');
    expect(GENERATED_FILES).toContain('src/schema.ts');
    // A plain comparison: the diff of half a megabyte of types would bury the instruction.
    expect(
      files['src/schema.ts'] === committed,
      'packages/client/src/schema.ts is out of date with the contract: run `npm run client:generate` and commit it.',
    ).toBe(true);
    // The JSON route's body is in the types: the document the client is built from has it.
    expect(committed).toContain("'multipart/form-data'");
    expect(committed).toMatch(/media\?: \{\s+url: string;\s+altText\?: string;/);
  }, 120_000);
});

describe('the client against a running server', () => {
  let t: TestApp;
  let media: Server;
  let mediaBase: string;
  let baseUrl: string;
  let image: Buffer;

  beforeAll(async () => {
    image = await png(32, 32);
    media = createServer((req, res) => {
      if (req.url === '/logo.png') {
        res.writeHead(200, { 'content-type': 'image/png', 'content-length': image.length });
        res.end(image);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => media.listen(0, '127.0.0.1', resolve));
    const mediaPort = (media.address() as AddressInfo).port;
    mediaBase = `http://127.0.0.1:${mediaPort}`;
    t = await createTestApp({ MEDIA_IMPORT_ALLOW_PRIVATE: `127.0.0.1:${mediaPort}` });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    media?.closeAllConnections();
    media?.close();
  });

  it('lists the accounts, creates a scheduled post as JSON with media by url, reads it back', async () => {
    const { owner, orgId } = await createOrg(t.app, 'client.owner@example.com', 'Client Co');
    expect(await connectThroughSandbox(t.app, owner, 'x', orgId)).toContain('connected=');
    const created = await owner.call('POST', `/api/organizations/${orgId}/api-keys`, {
      name: 'Typed client',
      permissions: ['post:create'],
    });
    expect(created.status).toBe(201);
    const herald = createHeraldClient({ baseUrl, apiKey: created.body.data.key });
    const path = { orgId };

    const accounts = await herald.GET('/api/organizations/{orgId}/integrations', {
      params: { path },
    });
    expect(accounts.response.status).toBe(200);
    const x = accounts.data!.data.platforms.find((p) => p.platform.name === 'X');
    expect(x).toBeDefined();

    const scheduledAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const post = await herald.POST('/api/organizations/{orgId}/post', {
      params: { path },
      headers: { 'Idempotency-Key': 'client-test-0b6c2a7e' },
      body: {
        integrationIds: [x!.id],
        content: 'Sent by the typed client',
        action: 'schedule',
        scheduledAt,
        media: [{ url: `${mediaBase}/logo.png`, altText: 'The logo' }],
      },
    });
    expect(post.error).toBeUndefined();
    expect(post.response.status).toBe(201);
    const postId = post.data!.data.post.id;

    const read = await herald.GET('/api/organizations/{orgId}/posts/{postId}', {
      params: { path: { orgId, postId } },
    });
    expect(read.data!.data.post).toMatchObject({
      id: postId,
      status: 'scheduled',
      content: 'Sent by the typed client',
      media: [{ mimeType: 'image/png', width: 32, height: 32, altText: 'The logo' }],
    });
    expect(new Date(read.data!.data.post.scheduledAt!).toISOString()).toBe(scheduledAt);

    // A refusal arrives as `error`, Herald's sentence included.
    const refused = await herald.POST('/api/organizations/{orgId}/post', {
      params: { path },
      body: {
        integrationIds: [x!.id],
        content: 'No such file',
        media: [{ url: `${mediaBase}/gone.png` }],
      },
    });
    expect(refused.response.status).toBe(400);
    expect(refused.error).toMatchObject({ status: 'error' });
    expect(JSON.stringify(refused.error)).toContain(`${mediaBase}/gone.png answered with HTTP 404`);
  });
});
