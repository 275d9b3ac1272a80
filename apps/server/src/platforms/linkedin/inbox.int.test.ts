import { describe, expect, it } from 'vitest';
import { startSandboxHarness } from '../../test/graph-harness.js';
import { useHarness } from '../../test/network-tests.js';
import { publishInOneGo } from '../publish-steps.js';
import { createTikTokInbox } from '../tiktok/inbox.js';
import type { InboxThreadRef } from '../inbox-types.js';
import type { ConnectableAccount, StoredAccount } from '../types.js';
import { network } from './index.js';

const h = useHarness(() => startSandboxHarness(network));
const inbox = () => h.adapter.inbox!;

const stored = (a: ConnectableAccount): StoredAccount => ({
  externalId: a.externalId,
  tokens: a.tokens,
  extra: a.extra ?? {},
  secrets: {},
});

async function connect(name: string, organization: string) {
  const signIn = async (kind: 'person' | 'organization') => {
    const { code } = await h.authorize({
      fields: { account: name, organizations: organization },
      kind,
    });
    return h.adapter.connect({ code: code!, redirectUri: h.redirectUri, codeVerifier: '', kind });
  };
  const [person] = await signIn('person');
  const [page] = await signIn('organization');
  return { person: stored(person!), page: stored(page!) };
}

async function emu(path: string, body: unknown) {
  const res = await fetch(`${h.base}/_emu/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`_emu/${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; actor: string };
}

describe('LinkedIn inbox against the LinkedIn sandbox', () => {
  it('says there are no messages; a member profile has nothing, a Page has its comments', async () => {
    const { person, page } = await connect('Inbox Admin', 'Inbox Co');
    expect(inbox().capabilities(person)).toMatchObject({ dm: false, comments: false });
    expect(inbox().capabilities(person).limitation).toMatch(/approved partners/);
    expect(inbox().capabilities(page)).toMatchObject({
      dm: false,
      comments: true,
      mentions: true,
    });
    expect(inbox().capabilities(page).limitation).toMatch(/no API for messages/);
    expect(await inbox().poll(person, null)).toEqual({ events: [], cursor: {} });
  });

  it('polls comments and replies on the Page’s posts, answers as the Page, and finds the answer', async () => {
    const { page } = await connect('Poll Admin', 'Poll Co');
    const post = await publishInOneGo(h.adapter.publishing!, page, {
      text: 'What should we build next?',
      media: [],
      idempotencyKey: 'li-inbox-1',
    });
    const grace = await emu('comments', {
      postId: post.externalId,
      fromName: 'Grace',
      message: 'Dark mode',
    });
    const linus = await emu('comments', {
      postId: post.externalId,
      parentId: grace.id,
      fromName: 'Linus',
      message: '+1',
    });

    const first = await inbox().poll(page, null);
    expect(first.events).toHaveLength(2);
    expect(first.events.find((e) => e.externalId === grace.id)).toMatchObject({
      kind: 'comment',
      direction: 'in',
      threadExternalId: post.externalId,
      parentExternalId: null,
      text: 'Dark mode',
      author: { externalId: grace.actor, name: 'LinkedIn member' },
      rootPost: { externalId: post.externalId, text: 'What should we build next?' },
    });
    expect(first.events.find((e) => e.externalId === linus.id)).toMatchObject({
      parentExternalId: grace.id,
    });
    expect((await inbox().poll(page, first.cursor)).events).toEqual([]);

    const thread: InboxThreadRef = {
      kind: 'comments',
      threadExternalId: post.externalId,
      participantExternalId: grace.actor,
      rootPostExternalId: post.externalId,
    };
    const since = new Date(Date.now() - 1000);
    const sent = await inbox().replyToComment!(page, thread, grace.id, 'Noted, thanks!');
    expect(await inbox().findSent!(page, thread, 'Noted, thanks!', since)).toMatchObject({
      externalId: sent.externalId,
    });
    expect(await inbox().findSent!(page, thread, 'Not sent', since)).toBeNull();
    const next = await inbox().poll(page, first.cursor);
    expect(next.events.map((e) => [e.externalId, e.direction, e.parentExternalId])).toEqual([
      [sent.externalId, 'out', grace.id],
    ]);
  });
});

describe('LinkedIn organization notifications', () => {
  it('polls mentions of the Page as mentions, once each, and answers one as the Page', async () => {
    const { page, person } = await connect('Mention Admin', 'Mention Co');
    const first = await emu('inbox/mention', {
      organization: page.externalId,
      fromName: 'Ada',
      text: 'Loving what Mention Co ships',
    });
    const initial = await inbox().poll(page, null);
    expect(initial.events).toHaveLength(1);
    expect(initial.events[0]).toMatchObject({
      kind: 'mention',
      direction: 'in',
      externalId: first.id,
      threadExternalId: first.id,
      text: 'Loving what Mention Co ships',
      author: { externalId: first.actor, name: 'LinkedIn member' },
      rootPost: {
        externalId: first.id,
        permalink: `https://www.linkedin.com/feed/update/${first.id}/`,
      },
    });
    // Nothing twice; a new mention comes alone.
    expect((await inbox().poll(page, initial.cursor)).events).toEqual([]);
    const second = await emu('inbox/mention', {
      organization: page.externalId,
      fromName: 'Bob',
      text: 'Thanks Mention Co!',
    });
    const later = await inbox().poll(page, initial.cursor);
    expect(later.events.map((e) => [e.kind, e.externalId])).toEqual([['mention', second.id]]);

    // The Page answers in a comment on the post that mentions it.
    const thread: InboxThreadRef = {
      kind: 'mention',
      threadExternalId: second.id,
      participantExternalId: second.actor,
      rootPostExternalId: second.id,
    };
    const sent = await inbox().replyToComment!(page, thread, null, 'Glad you like it!');
    const posts = (await (await fetch(`${h.base}/_emu/posts`)).json()) as {
      posts: Array<{ id: string; comments: Array<{ id: string; actor: string; text: string }> }>;
    };
    expect(posts.posts.find((p) => p.id === second.id)?.comments).toEqual([
      { id: sent.externalId, actor: page.externalId, text: 'Glad you like it!' },
    ]);

    // A member profile reads no notifications; another organization's are refused.
    expect((await inbox().poll(person, null)).events).toEqual([]);
    const { page: stranger } = await connect('Other Admin', 'Other Co');
    await expect(
      inbox().poll({ ...stranger, externalId: page.externalId }, null),
    ).rejects.toThrow();
  });
});

describe('TikTok inbox', () => {
  it('has no messages or comments for a Login Kit app, says so, and polls nothing', async () => {
    const tiktok = createTikTokInbox();
    const account: StoredAccount = {
      externalId: 'open-id',
      tokens: {
        accessToken: 't',
        accessTokenExpiresAt: null,
        refreshToken: null,
        refreshTokenExpiresAt: null,
        scopes: [],
      },
      extra: {},
      secrets: {},
    };
    expect(tiktok.capabilities(account)).toMatchObject({
      dm: false,
      comments: false,
      mentions: false,
    });
    expect(tiktok.capabilities(account).limitation).toMatch(/does not let apps like Herald/);
    expect(await tiktok.poll(account, { kept: 1 })).toEqual({ events: [], cursor: { kept: 1 } });
  });
});
