import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app.js';
import { createOrg, type Actor } from '../test/factories.js';
import { VALIDATION_ISSUES_MAX } from './error-handler.js';
import { SENTENCE_MAX } from './error-sentence.js';

/** No error sentence repeats a long input back, whichever code wrote it. */
let t: TestApp;
let owner: Actor;
let orgId: string;
beforeAll(async () => {
  t = await createTestApp();
  ({ owner, orgId } = await createOrg(t.app, 'owner@echo.test', 'Echo Co'));
});
afterAll(() => t.close());

const LONG = 'a'.repeat(5_000);

/** The answer is the error envelope, its sentence bounded and without the long input. */
function expectBounded(res: { status: number; body: { status: string; message: string } }) {
  expect(res.status).toBeGreaterThanOrEqual(400);
  expect(res.status).toBeLessThan(500);
  expect(res.body.status).toBe('error');
  expect(res.body.message.length).toBeLessThanOrEqual(SENTENCE_MAX);
  expect(res.body.message).not.toContain('a'.repeat(101));
  expect(JSON.stringify(res.body)).not.toContain('a'.repeat(101));
}

describe('error sentences that quote the request', () => {
  it('a 5,000-character path: a 404 that quotes its start', async () => {
    const res = await owner.call('GET', `/api/${LONG}`);
    expect(res.status).toBe(404);
    expectBounded(res);
    expect(res.body.message).toBe(`There is no GET /api/${'a'.repeat(95)}… in this API.`);
  });

  it("a 5,000-character path under an organization's id", async () => {
    const res = await owner.call('GET', `/api/organizations/${orgId}/${LONG}`);
    expect(res.status).toBe(404);
    expectBounded(res);
    expect(res.body.message).toContain(`/api/organizations/${orgId}/`);
  });

  it('a 5,000-character query value', async () => {
    const unknown = await owner.call('GET', `/api/${LONG}?q=${LONG}`);
    expectBounded(unknown);
    const invalid = await owner.call('GET', `/api/organizations/${orgId}/posts?q=${LONG}`);
    expect(invalid.status).toBe(400);
    expectBounded(invalid);
  });

  it('a 5,000-character JSON value refused by a service', async () => {
    // The CSV import names the column it does not know.
    const res = await owner.call('POST', `/api/organizations/${orgId}/posts/import/dry-run`, {
      csv: `text,accounts,${LONG}\nHi,x,1\n`,
      mode: 'draft',
    });
    expect(res.status).toBe(400);
    expectBounded(res);
    expect(res.body.message).toMatch(/^The column "a{99}… \(column 3\) is not one Herald imports/);
  });

  it('5,000 bad entries in a list: a few issues described, the rest counted', async () => {
    // A role's permissions are a list of names, each checked on its own.
    const permissionIds = Array.from({ length: 5_000 }, (_, i) => `no:such-permission-${i}`);
    const res = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name: 'Many',
      permissionIds,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_FAILED');
    expect(res.body.details.issues).toHaveLength(VALIDATION_ISSUES_MAX);
    expect(res.body.details.issuesNotShown).toBeGreaterThanOrEqual(5_000 - VALIDATION_ISSUES_MAX);
    expect(JSON.stringify(res.body).length).toBeLessThan(10_000);
  });
});
