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
      mentions: false,
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
