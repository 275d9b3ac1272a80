import { describe, expect, it } from 'vitest';
import { startSandboxHarness } from '../../test/sandbox-harness.js';
import { publishInOneGo } from '../publish-steps.js';
import type { StoredAccount } from '../types.js';
import { network } from './index.js';
import { useHarness } from '../../test/network-tests.js';

const h = useHarness(() => startSandboxHarness(network));

async function connect(name: string) {
  const { account } = await h.connectAs(name);
  const stored: StoredAccount = {
    externalId: account.externalId,
    tokens: account.tokens,
    extra: {},
    secrets: {},
  };
  const graph = async (method: string, path: string, params: Record<string, string> = {}) => {
    const query = new URLSearchParams({ ...params, access_token: account.tokens.accessToken });
    const res = await fetch(`${h.base}/v1.0${path}?${query}`, { method });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { stored, graph };
}

describe('Threads sandbox: publishing state under load and the reply endpoints', () => {
  it('counts every concurrent publication once, in the feed and in the quota', async () => {
    const { stored, graph } = await connect('Busy Account');
    const publishing = h.adapter.publishing!;
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        publishInOneGo(publishing, stored, {
          text: `post ${i}`,
          media: [],
          idempotencyKey: `${i}`,
        }),
      ),
    );
    const posts = ((await h.emu('GET', 'posts?account=busy_account')) as any).posts;
    expect(posts).toHaveLength(10);
    const limit = await graph('GET', `/${stored.externalId}/threads_publishing_limit`, {
      fields: 'quota_usage,config',
    });
    expect(limit.body).toEqual({
      data: [{ quota_usage: 10, config: { quota_total: 250, quota_duration: 86_400 } }],
    });
    const feed = await graph('GET', '/me/threads', { fields: 'id,text,media_type', limit: '4' });
    expect(feed.body.data).toHaveLength(4);
    expect(feed.body.data[0]).toEqual({
      id: expect.any(String),
      text: expect.any(String),
      media_type: 'TEXT_POST',
    });
    expect(feed.body.paging.next).toContain('after=');
  });

  it('fails exactly the next N calls, even when they arrive together', async () => {
    const { graph } = await connect('Exactly Three');
    await h.setKnob('exactly_three', 'fail_next', true, 3);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => graph('GET', '/me', { fields: 'id' })),
    );
    expect(answers.filter((a) => a.status === 500)).toHaveLength(3);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
  });

  it('serves the conversation flattened and lets the author hide a reply', async () => {
    const { stored, graph } = await connect('Moderator');
    const { externalId } = await publishInOneGo(h.adapter.publishing!, stored, {
      text: 'Be nice',
      media: [],
      idempotencyKey: 'm',
    });
    const top = (await h.emu('POST', 'comments', {
      postId: externalId,
      fromName: 'Troll',
      message: 'first!',
    })) as { id: string };
    await h.emu('POST', 'comments', { postId: top.id, fromName: 'Kind', message: 'be kind' });

    const conversation = await graph('GET', `/${externalId}/conversation`, {
      fields: 'id,text,username,replied_to,root_post,hide_status',
      reverse: 'false',
    });
    expect(conversation.body.data.map((r: any) => [r.text, r.replied_to.id])).toEqual([
      ['first!', externalId],
      ['be kind', top.id],
    ]);

    expect((await graph('POST', `/${top.id}/manage_reply`, { hide: 'true' })).body).toEqual({
      success: true,
    });
    const replies = await graph('GET', `/${externalId}/replies`, { fields: 'id,hide_status' });
    expect(replies.body.data).toEqual([{ id: top.id, hide_status: 'HIDDEN' }]);
    const nested = conversation.body.data[1].id;
    expect((await graph('POST', `/${nested}/manage_reply`, { hide: 'true' })).status).toBe(400);
  });
});
