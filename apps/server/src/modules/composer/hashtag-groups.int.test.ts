import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/app.js';
import { createOrgCast, type Actor } from '../../test/factories.js';

/** docs/product.md#hashtag-groups: the organization's saved hashtag groups. */
let t: TestApp;
let owner: Actor;
let creator: Actor;
let support: Actor;
let outsider: Actor;
let orgId: string;
let otherOrgId: string;

const url = (org = orgId, id?: string) =>
  `/api/organizations/${org}/hashtag-groups${id ? `/${id}` : ''}`;

beforeAll(async () => {
  t = await createTestApp();
  ({ owner, orgId, creator, support, outsider, otherOrgId } = await createOrgCast(
    t.app,
    'tags.test',
    'Tags Co',
  ));
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('hashtag groups', () => {
  it('saves, lists by name, renames and deletes a group shared by the team', async () => {
    const made = await creator.call('POST', url(), {
      name: 'Spring',
      hashtags: ['#spring', 'launch', '#spring', ' #café_2026 '],
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const group = made.body.data.group as { id: string; hashtags: string[] };
    // The # is added where missing, and a hashtag given twice is kept once.
    expect(group.hashtags).toEqual(['#spring', '#launch', '#café_2026']);
    await owner.call('POST', url(), { name: 'Autumn', hashtags: ['#autumn'] });

    const listed = await owner.call('GET', url());
    expect(listed.body.data.groups.map((g: { name: string }) => g.name)).toEqual([
      'Autumn',
      'Spring',
    ]);

    const renamed = await owner.call('PUT', url(orgId, group.id), {
      name: 'Spring launch',
      hashtags: ['#spring'],
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.group).toMatchObject({ name: 'Spring launch', hashtags: ['#spring'] });

    expect((await creator.call('DELETE', url(orgId, group.id))).status).toBe(200);
    expect((await creator.call('DELETE', url(orgId, group.id))).status).toBe(404);
    expect((await owner.call('GET', url())).body.data.groups).toHaveLength(1);
  });

  it('keeps each organization to its own groups', async () => {
    const theirs = await outsider.call('POST', url(otherOrgId), {
      name: 'Theirs',
      hashtags: ['#theirs'],
    });
    const id = theirs.body.data.group.id as string;
    expect(
      (await owner.call('GET', url())).body.data.groups.map((g: { name: string }) => g.name),
    ).not.toContain('Theirs');
    // Their group cannot be changed or deleted through this organization.
    const changed = await owner.call('PUT', url(orgId, id), { name: 'Mine', hashtags: ['#x'] });
    expect(changed.status).toBe(404);
    expect(changed.body.message).toBe('This hashtag group does not exist in this organization.');
    expect((await owner.call('DELETE', url(orgId, id))).status).toBe(404);
    expect((await outsider.call('GET', url(otherOrgId))).body.data.groups).toHaveLength(1);
    // Nor reached by calling the other organization's routes.
    expect((await owner.call('GET', url(otherOrgId))).status).toBe(403);
  });

  it('refuses members who cannot create posts', async () => {
    expect((await support.call('GET', url())).status).toBe(403);
    expect((await support.call('POST', url(), { name: 'x', hashtags: ['#x'] })).status).toBe(403);
  });

  it('answers 400 with a sentence for a group the composer could not use', async () => {
    const noName = await owner.call('POST', url(), { name: ' ', hashtags: ['#x'] });
    expect(noName.status).toBe(400);
    expect(noName.body.message).toContain('Name the hashtag group.');
    const empty = await owner.call('POST', url(), { name: 'Empty', hashtags: [] });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('Add at least one hashtag to the group.');
    const spaced = await owner.call('POST', url(), { name: 'Bad', hashtags: ['#two words'] });
    expect(spaced.status).toBe(400);
    expect(spaced.body.message).toContain('A hashtag is letters, digits or _ after the #');
    expect(
      (await owner.call('PUT', url(orgId, 'nope'), { name: 'x', hashtags: ['#x'] })).status,
    ).toBe(400);
  });
});
