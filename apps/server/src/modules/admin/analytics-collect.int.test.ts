import { AnalyticsCollectResponseSchema } from '@herald/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrg, signIn, type Actor } from '../../test/factories.js';

let t: TestApp;
let ops: Actor;
beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'ops@example.com' });
  ops = await signIn(t.app, 'ops@example.com', 'Olga Ops');
});
afterAll(() => t.close());

describe('POST /admin/analytics/collect', () => {
  it('is for platform operators only, not even for the organization’s owner', async () => {
    const { owner, orgId } = await createOrg(t.app, 'owner@example.com', 'Owned Co');
    const res = await owner.call('POST', '/api/admin/analytics/collect', {
      organizationId: orgId,
    });
    expect(res.status).toBe(403);
    expect(res.body.data).toBeUndefined();
  });

  it('says what is wrong with the organization it is given', async () => {
    const bad = await ops.call('POST', '/api/admin/analytics/collect', { organizationId: 'acme' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('organizationId must be an organization id.');
    const unknown = await ops.call('POST', '/api/admin/analytics/collect', {
      organizationId: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('This organization does not exist.');
  });

  it('answers what it read: nothing for an organization without published posts or accounts', async () => {
    const { orgId } = await createOrg(t.app, 'quiet@example.com', 'Quiet Co');
    const res = await ops.call('POST', '/api/admin/analytics/collect', { organizationId: orgId });
    expect(res.status).toBe(200);
    expect(AnalyticsCollectResponseSchema.parse(res.body).data).toEqual({
      targets: 0,
      collected: 0,
      queued: 0,
      accounts: 0,
    });
  });
});
