import {
  INBOX_OWN_LABELS_MAX,
  INBOX_SAVED_REPLIES_MAX,
  ORGANIZATION_ROLES_MAX,
} from '@herald/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboxLabels, inboxSavedReplies, roles } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrg } from '../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

let n = 0;
async function setup() {
  n++;
  const org = await createOrg(t.app, `limits${n}@example.com`, `Limits ${n}`);
  const api = (suffix: string) => `/api/organizations/${org.orgId}/inbox${suffix}`;
  return { ...org, api };
}

/** Fills the organization's table up to `count` rows at once (what many creates would leave). */
const fill = <T>(count: number, row: (i: number) => T) =>
  Array.from({ length: count }, (_, i) => row(i));

describe('an organization’s lists are bounded', () => {
  it('refuses a saved reply past the cap with a sentence, and concurrent creates take the last place once', async () => {
    const { owner, orgId, api } = await setup();
    await t.database.db.insert(inboxSavedReplies).values(
      fill(INBOX_SAVED_REPLIES_MAX - 1, (i) => ({
        organizationId: orgId,
        title: `Reply ${String(i).padStart(3, '0')}`,
        text: 'Thanks!',
      })),
    );
    const answers = await Promise.all(
      [1, 2, 3].map((i) =>
        owner.call('POST', api('/saved-replies'), { title: `Last ${i}`, text: 'One more' }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409))
      expect(refused.body).toMatchObject({
        code: 'CONFLICT',
        message: `An organization can have at most ${INBOX_SAVED_REPLIES_MAX} saved replies; delete one you no longer use.`,
      });
    const mine = await t.database.db
      .select()
      .from(inboxSavedReplies)
      .where(eq(inboxSavedReplies.organizationId, orgId));
    expect(mine).toHaveLength(INBOX_SAVED_REPLIES_MAX);
  });

  it('refuses an own label past the cap, while adding one it already has still answers the labels', async () => {
    const { owner, orgId, api } = await setup();
    await t.database.db
      .insert(inboxLabels)
      .values(fill(INBOX_OWN_LABELS_MAX - 1, (i) => ({ organizationId: orgId, name: `l${i}` })));
    const answers = await Promise.all(
      ['vip', 'press', 'urgent'].map((name) => owner.call('POST', api('/labels'), { name })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect(answers.find((a) => a.status === 409)!.body).toMatchObject({
      code: 'CONFLICT',
      message: `An organization can have at most ${INBOX_OWN_LABELS_MAX} labels of its own; delete one you no longer use.`,
    });
    const again = await owner.call('POST', api('/labels'), { name: 'l0' });
    expect(again.status).toBe(200);
    expect(again.body.data.ownLabels).toHaveLength(INBOX_OWN_LABELS_MAX);
    const summary = await owner.call('GET', api('/summary'));
    expect(summary.body.data.ownLabels).toHaveLength(INBOX_OWN_LABELS_MAX);
  });

  it('refuses a role past the cap with a sentence', async () => {
    const { owner, orgId } = await setup();
    const existing = (await owner.call('GET', `/api/organizations/${orgId}/roles`)).body.length;
    await t.database.db.insert(roles).values(
      fill(ORGANIZATION_ROLES_MAX - existing - 1, (i) => ({
        organizationId: orgId,
        name: `R${i}`,
      })),
    );
    const role = (name: string) =>
      owner.call('POST', `/api/organizations/${orgId}/roles`, {
        name,
        permissionIds: ['post:create'],
      });
    expect((await role('Last one')).status).toBe(201);
    const refused = await role('One too many');
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      `An organization can have at most ${ORGANIZATION_ROLES_MAX} roles; delete one you no longer use.`,
    );
    const listed = await owner.call('GET', `/api/organizations/${orgId}/roles`);
    expect(listed.body).toHaveLength(ORGANIZATION_ROLES_MAX);
  });

  it('lists saved replies a page at a time by name, with a cursor to the next page and a search', async () => {
    const { owner, orgId, api } = await setup();
    const titles = ['Delivery', 'Apology', 'Hours', 'Refund', 'Bye'];
    await t.database.db.insert(inboxSavedReplies).values(
      titles.map((title) => ({
        organizationId: orgId,
        title,
        text: title === 'Refund' ? 'Your money is on its way back.' : `About ${title}`,
      })),
    );
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await owner.call(
        'GET',
        api(`/saved-replies?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
      );
      expect(res.status).toBe(200);
      expect(res.body.data.savedReplies.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.data.savedReplies.map((r: { title: string }) => r.title));
      cursor = res.body.meta.nextCursor as string | null;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(['Apology', 'Bye', 'Delivery', 'Hours', 'Refund']);

    const first = await owner.call('GET', api('/saved-replies'));
    expect(first.body.data.savedReplies).toHaveLength(5);
    expect(first.body.meta.nextCursor).toBeNull();
    const found = await owner.call('GET', api('/saved-replies?q=money'));
    expect(found.body.data.savedReplies.map((r: { title: string }) => r.title)).toEqual(['Refund']);

    const tooMany = await owner.call('GET', api('/saved-replies?limit=1000'));
    expect(tooMany.status).toBe(400);
    const forged = await owner.call('GET', api('/saved-replies?cursor=bm90LWEtY3Vyc29y'));
    expect(forged.status).toBe(400);
    expect(forged.body.message).toBe('The page cursor is not valid; start from the first page.');
  });
});
