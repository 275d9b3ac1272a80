import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationWebhooks } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';
import { recordNotification } from './notifications.service.js';
import { sendWebhooks } from './webhooks.js';

/**
 * The webhook is a local server on loopback, allowed by the test-only MEDIA_IMPORT_ALLOW_PRIVATE
 * for its port alone (the SSRF guard refuses loopback otherwise, as a second server shows).
 */
let t: TestApp;
let hook: Server;
let port: number;
let status = 200;
const received: unknown[] = [];

beforeAll(async () => {
  hook = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push(JSON.parse(body));
      res.writeHead(status).end('ok');
    });
  });
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
  port = (hook.address() as AddressInfo).port;
  t = await createTestApp({ MEDIA_IMPORT_ALLOW_PRIVATE: `127.0.0.1:${port}` });
});
afterAll(async () => {
  await t.close();
  await new Promise((resolve) => hook.close(resolve));
});

const hookDeps = () => ({
  db: t.database.db,
  cipher: t.cipher,
  allowPrivate: [`127.0.0.1:${port}`],
  log: t.app.log,
});

describe('the organization webhook', () => {
  it('keeps the URL sealed, shows only a hint, and sends a test', async () => {
    const { owner, orgId } = await createOrg(t.app, 'hook.owner@example.com', 'Hook Co');
    const path = `/api/organizations/${orgId}/notification-webhook`;
    expect((await owner.call('GET', path)).body.data.webhook).toEqual({
      configured: false,
      urlHint: null,
    });
    const url = `http://127.0.0.1:${port}/services/T000/B000/secretpart1234`;
    const saved = await owner.call('PUT', path, { url });
    expect(saved.status).toBe(200);
    expect(saved.body.data.webhook).toEqual({
      configured: true,
      urlHint: `http://127.0.0.1:${port}/…1234`,
    });
    expect(JSON.stringify((await owner.call('GET', path)).body)).not.toContain('secretpart');
    const [row] = await t.database.db
      .select()
      .from(notificationWebhooks)
      .where(eq(notificationWebhooks.organizationId, orgId));
    expect(row!.urlSealed).not.toContain('secretpart');
    expect(t.cipher.decrypt(row!.urlSealed)).toBe(url);

    received.length = 0;
    const test = await owner.call('POST', `${path}/test`);
    expect(test.body.data).toEqual({
      delivered: true,
      message: 'The webhook accepted the test message.',
    });
    expect(received).toEqual([
      {
        text: 'Herald test: publishing failures and approvals of this organization will appear here.',
      },
    ]);

    status = 404;
    const refused = await owner.call('POST', `${path}/test`);
    status = 200;
    expect(refused.body.data).toEqual({
      delivered: false,
      message: 'The webhook URL answered with HTTP 404.',
    });
  });

  it('refuses a URL on this machine or a private network, and plain http, with a sentence', async () => {
    const { owner, orgId } = await createOrg(t.app, 'hook.bad@example.com', 'Bad Hook Co');
    const path = `/api/organizations/${orgId}/notification-webhook`;
    const loopback = await owner.call('PUT', path, { url: 'https://127.0.0.1:9/hook' });
    expect(loopback.status).toBe(400);
    expect(loopback.body.message).toContain('private or local address');
    const local = await owner.call('PUT', path, { url: 'https://localhost/hook' });
    expect(local.body.message).toContain('points at this machine');
    const privateNet = await owner.call('PUT', path, { url: 'https://10.0.0.5/hook' });
    expect(privateNet.body.message).toContain('private or local address');
    for (const url of ['http://hooks.example.com/x', 'ftp://hooks.example.com/x']) {
      const plain = await owner.call('PUT', path, { url });
      expect(plain.status).toBe(400);
      expect(plain.body.message).toBe(
        'The webhook URL must start with https:// (Slack and Teams give one that does).',
      );
    }
    expect((await owner.call('GET', path)).body.data.webhook.configured).toBe(false);
  });

  it('posts publishing failures and approvals, not successes, once each, then can be removed', async () => {
    const { owner, orgId } = await createOrg(t.app, 'hook.flow@example.com', 'Flow Co');
    const path = `/api/organizations/${orgId}/notification-webhook`;
    await owner.call('PUT', path, { url: `http://127.0.0.1:${port}/flow` });
    for (const [type, message] of [
      ['POST_FAILED', "'Spring' was published to 6 of 7 accounts; X failed: Token expired."],
      ['POST_PUBLISHED', "'Spring' was published to all 7 accounts."],
      ['POST_SUBMITTED', "Ada submitted 'Spring' for approval."],
    ] as const)
      await recordNotification(
        t.database.db,
        orgId,
        { admins: true },
        { type, priority: 'HIGH', message },
      );
    received.length = 0;
    expect(await sendWebhooks(hookDeps())).toBe(2);
    expect(received).toEqual([
      { text: "Post Failed: 'Spring' was published to 6 of 7 accounts; X failed: Token expired." },
      { text: "Approval Requested: Ada submitted 'Spring' for approval." },
    ]);
    expect(await sendWebhooks(hookDeps())).toBe(0);

    await owner.call('DELETE', path);
    await recordNotification(
      t.database.db,
      orgId,
      { admins: true },
      { type: 'POST_FAILED', priority: 'HIGH', message: 'Nobody listens.' },
    );
    expect(await sendWebhooks(hookDeps())).toBe(0);
  });
});
