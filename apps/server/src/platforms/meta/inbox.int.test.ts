import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxHarness, type SandboxHarness } from '../../test/graph-harness.js';
import {
  commentThread,
  connectMeta,
  customerDm,
  dmThread,
  graphCall,
  inboxOf,
  publishIgMedia,
  publishPagePost,
  sentBySandbox,
} from '../../test/meta-inbox.js';
import { emuCall } from '../../test/sandbox-harness.js';
import { expectPlatformError } from '../../test/network-tests.js';
import { network as facebook } from '../facebook/index.js';
import { createFacebookInbox } from '../facebook/inbox.js';
import { network as instagram } from '../instagram/index.js';
import { createInstagramInbox, INSTAGRAM_HISTORY_NOTE } from '../instagram/inbox.js';
import type { MetaUrls } from './urls.js';

/** The Facebook and Instagram inbox adapters against the Graph emulator (docs/inbox.md). */
let fb: SandboxHarness<MetaUrls>;
let ig: SandboxHarness<MetaUrls>;
beforeAll(async () => {
  [fb, ig] = await Promise.all([startSandboxHarness(facebook), startSandboxHarness(instagram)]);
});
afterAll(async () => {
  await Promise.all([fb?.close(), ig?.close()]);
});

const HOUR = 3600;

describe('Facebook Page inbox', () => {
  it('imports a customer DM, replies inside the window, and refuses after 24 hours', async () => {
    const page = await connectMeta(fb, 'Fay');
    const inbox = inboxOf(fb);
    const dm = await customerDm(fb, page.externalId, 'Carla Diaz', 'Bonjour, vous livrez à Lyon ?');

    const first = await inbox.poll(page, null);
    const dms = first.events.filter((e) => e.kind === 'dm');
    expect(dms).toHaveLength(1);
    expect(dms[0]).toMatchObject({
      externalId: dm.messageIds[0],
      threadExternalId: dm.senderId,
      direction: 'in',
      text: 'Bonjour, vous livrez à Lyon ?',
      author: { externalId: dm.senderId, name: 'Carla Diaz' },
      counterpart: { externalId: dm.senderId, name: 'Carla Diaz' },
    });
    expect(first.cursor.dmSince).toEqual(expect.any(Number));

    const sent = await inbox.sendDm!(page, dmThread(dm.senderId), 'Oui, dès demain.');
    expect(sent.externalId).toMatch(/^m_/);
    const onSandbox = await sentBySandbox(fb, page.externalId);
    expect(onSandbox.map((m) => m.text)).toEqual(['Oui, dès demain.']);

    // Our reply comes back as an outgoing message of the same thread.
    const second = await inbox.poll(page, first.cursor);
    const ours = second.events.find((e) => e.externalId === sent.externalId);
    expect(ours).toMatchObject({
      direction: 'out',
      threadExternalId: dm.senderId,
      counterpart: { externalId: dm.senderId },
    });

    // After the reply is lost in transit, findSent tells it went out; other text did not.
    const since = new Date(Date.now() - 60_000);
    expect(await inbox.findSent!(page, dmThread(dm.senderId), 'Oui, dès demain.', since)).toEqual(
      expect.objectContaining({ externalId: sent.externalId }),
    );
    expect(await inbox.findSent!(page, dmThread(dm.senderId), 'Never sent', since)).toBeNull();

    await fb.advanceClock(25 * HOUR);
    const err = await expectPlatformError(
      inbox.sendDm!(page, dmThread(dm.senderId), 'Still there?'),
    );
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(/only within 24 hours of the customer's last message/);
    expect(await sentBySandbox(fb, page.externalId)).toHaveLength(1);

    // With the Human Agent feature, the same reply goes out tagged, up to 7 days.
    const agent = createFacebookInbox(fb.settings, { humanAgent: true });
    expect(agent.capabilities(page).humanAgentWindowHours).toBe(168);
    await agent.sendDm!(page, dmThread(dm.senderId), 'A person here: yes.');
    const tagged = await sentBySandbox(fb, page.externalId);
    expect(tagged.map((m) => m.tag)).toEqual([null, 'HUMAN_AGENT']);
    await fb.advanceClock(7 * 24 * HOUR);
    const late = await expectPlatformError(agent.sendDm!(page, dmThread(dm.senderId), 'Hello?'));
    expect(late.message).toMatch(/within 7 days/);
    expect(await sentBySandbox(fb, page.externalId)).toHaveLength(2);

    // A new customer message opens the window again.
    await customerDm(fb, page.externalId, 'Carla Diaz', 'Je suis là.');
    await inbox.sendDm!(page, dmThread(dm.senderId), 'Parfait.');
    expect(await sentBySandbox(fb, page.externalId)).toHaveLength(3);
  });

  it('says what it can do and refuses a DM over 2,000 characters without calling', async () => {
    const page = await connectMeta(fb, 'Gus');
    const inbox = inboxOf(fb);
    expect(inbox.capabilities(page)).toMatchObject({
      dm: true,
      comments: true,
      privateReply: true,
      like: true,
      hide: true,
      deleteComment: true,
      block: true,
      dmWindowHours: 24,
      humanAgentWindowHours: null,
      replyMaxLength: 8000,
      dmMaxLength: 2000,
      historyNote: null,
    });
    const dm = await customerDm(fb, page.externalId, 'Hal', 'Hi');
    const err = await expectPlatformError(
      inbox.sendDm!(page, dmThread(dm.senderId), 'x'.repeat(2001)),
    );
    expect(err.message).toMatch(/at most 2000 characters/);
    expect(await sentBySandbox(fb, page.externalId)).toHaveLength(0);
  });

  it('polls comments, replies, likes, hides, deletes and sends one private reply', async () => {
    const page = await connectMeta(fb, 'Ivy');
    const inbox = inboxOf(fb);
    const postId = await publishPagePost(fb, page, 'Our new menu');
    const { id: commentId } = await fb.comment(postId, 'Jon Park', 'Looks great!');

    const { events, cursor } = await inbox.poll(page, null);
    const comment = events.find((e) => e.externalId === commentId);
    expect(comment).toMatchObject({
      kind: 'comment',
      threadExternalId: postId,
      direction: 'in',
      parentExternalId: null,
      text: 'Looks great!',
      author: { name: 'Jon Park' },
      rootPost: { externalId: postId, text: 'Our new menu' },
      hidden: false,
    });

    const reply = await inbox.replyToComment!(page, commentThread(postId), commentId, 'Thank you!');
    const again = await inbox.poll(page, cursor);
    expect(again.events.find((e) => e.externalId === reply.externalId)).toMatchObject({
      direction: 'out',
      parentExternalId: commentId,
      threadExternalId: postId,
    });
    expect(
      await inbox.findSent!(page, commentThread(postId), 'Thank you!', new Date(Date.now() - 5000)),
    ).toMatchObject({ externalId: reply.externalId });

    const token = page.tokens.accessToken;
    await inbox.like!(page, commentId, true);
    await inbox.like!(page, commentId, true);
    expect(
      (await graphCall(fb, 'GET', commentId, token, { fields: 'like_count' })).body.like_count,
    ).toBe(1);
    await inbox.like!(page, commentId, false);
    expect(
      (await graphCall(fb, 'GET', commentId, token, { fields: 'like_count' })).body.like_count,
    ).toBe(0);

    await inbox.hide!(page, commentId, true);
    expect(
      (await graphCall(fb, 'GET', commentId, token, { fields: 'is_hidden' })).body.is_hidden,
    ).toBe(true);
    await inbox.hide!(page, commentId, false);
    expect(
      (await graphCall(fb, 'GET', commentId, token, { fields: 'is_hidden' })).body.is_hidden,
    ).toBe(false);

    const privately = await inbox.privateReply!(page, commentId, 'Sent you the menu privately.');
    expect(privately.externalId).toMatch(/^m_/);
    const twice = await expectPlatformError(inbox.privateReply!(page, commentId, 'And again'));
    expect(twice.message).toMatch(/only one private reply/);
    const sent = await sentBySandbox(fb, page.externalId);
    expect(sent.filter((m) => m.privateReplyTo === commentId)).toHaveLength(1);

    // Private replies expire 7 days after the comment.
    const { id: old } = await fb.comment(postId, 'Kim', 'Late question');
    await fb.advanceClock(8 * 24 * HOUR);
    const tooOld = await expectPlatformError(inbox.privateReply!(page, old, 'Sorry for the delay'));
    expect(tooOld.message).toMatch(/within 7 days of the comment/);

    await inbox.deleteComment!(page, old);
    expect((await graphCall(fb, 'GET', old, token, { fields: 'id' })).status).toBe(400);

    await inbox.block!(page, 'psid-123');
    expect((await graphCall(fb, 'GET', `${page.externalId}/blocked`, token)).body.data).toEqual([
      { id: 'psid-123' },
    ]);
  });

  it('reports an unknown outcome when the answer is lost, and findSent finds the message', async () => {
    const page = await connectMeta(fb, 'Uri');
    const inbox = inboxOf(fb);
    const dm = await customerDm(fb, page.externalId, 'Vera', 'Is it in stock?');
    const since = new Date(Date.now() - 1000);
    await fb.setKnob(page.externalId, 'finalize_timeout', 10);
    const lost = await expectPlatformError(
      inbox.sendDm!(page, dmThread(dm.senderId), 'Yes, two left.'),
    );
    expect(lost.kind).toBe('unknown_outcome');
    // It did go out once; reconciliation finds it instead of sending again.
    const found = await inbox.findSent!(page, dmThread(dm.senderId), 'Yes, two left.', since);
    const onSandbox = await sentBySandbox(fb, page.externalId);
    expect(onSandbox).toHaveLength(1);
    expect(found?.externalId).toBe(onSandbox[0]!.id);
  });

  it('lets a person play the customer from the sandbox page', async () => {
    const page = await connectMeta(fb, 'Wren');
    const postId = await publishPagePost(fb, page, 'Weekend hours');
    const html = await (await fetch(`${fb.base}/_emu/inbox`)).text();
    expect(html).toContain('<option value="' + page.externalId + '">Wren Page</option>');
    expect(html).toContain('<label for="dm-text">Message</label>');
    expect(html).toContain('Weekend hours');

    const post = (path: string, fields: Record<string, string>) =>
      fetch(`${fb.base}/_emu/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
        redirect: 'manual',
      });
    const sent = await post('inbox/messages', {
      to: page.externalId,
      fromName: 'Xena',
      text: 'Open tomorrow?',
    });
    expect(sent.status).toBe(303);
    expect(decodeURIComponent(sent.headers.get('location')!)).toContain("Xena's message was sent.");
    const commented = await post('inbox/comments', { postId, fromName: 'Yan', message: 'Yay' });
    expect(commented.status).toBe(303);

    const { events } = await inboxOf(fb).poll(page, null);
    expect(events.map((e) => [e.kind, e.text])).toEqual(
      expect.arrayContaining([
        ['dm', 'Open tomorrow?'],
        ['comment', 'Yay'],
      ]),
    );
  });

  it('checks the webhook subscription and subscribes the Page again', async () => {
    const page = await connectMeta(fb, 'Lea');
    const inbox = inboxOf(fb);
    expect(await inbox.checkSubscription!(page)).toBe(false);
    await inbox.subscribe!(page);
    expect(await inbox.checkSubscription!(page)).toBe(true);
    const apps = await graphCall(
      fb,
      'GET',
      `${page.externalId}/subscribed_apps`,
      page.tokens.accessToken,
    );
    expect(apps.body.data[0].subscribed_fields).toEqual(['messages', 'message_echoes', 'feed']);
    // Meta drops the subscription (an hour of failed deliveries): the check notices.
    await graphCall(fb, 'DELETE', `${page.externalId}/subscribed_apps`, page.tokens.accessToken);
    expect(await inbox.checkSubscription!(page)).toBe(false);
    await inbox.subscribe!(page);
    expect(await inbox.checkSubscription!(page)).toBe(true);
  });
});

describe('Instagram inbox', () => {
  it('imports only the 20 newest messages of a conversation and says so', async () => {
    const account = await connectMeta(ig, 'Mia', 'mia_studio');
    const inbox = inboxOf(ig);
    expect(inbox.capabilities(account)).toMatchObject({
      dm: true,
      comments: true,
      mentions: true,
      privateReply: true,
      like: false,
      block: false,
      replyMaxLength: 2200,
      dmMaxLength: 1000,
      historyNote: INSTAGRAM_HISTORY_NOTE,
    });
    expect(inbox.like).toBeUndefined();
    expect(inbox.block).toBeUndefined();

    const texts = Array.from({ length: 25 }, (_, i) => `Message ${i + 1}`);
    const dm = await customerDm(ig, 'mia_studio', 'noa', texts);
    const { events } = await inbox.poll(account, null);
    const dms = events.filter((e) => e.kind === 'dm');
    expect(dms).toHaveLength(20);
    expect(new Set(dms.map((e) => e.text))).toEqual(new Set(texts.slice(5)));
    expect(dms[0]).toMatchObject({
      threadExternalId: dm.senderId,
      direction: 'in',
      author: { username: 'noa', profileUrl: 'https://www.instagram.com/noa/' },
    });
    // The sandbox refuses the older ones, as Instagram does.
    const token = account.secrets.pageToken!;
    const oldest = await graphCall(ig, 'GET', dm.messageIds[0]!, token, { fields: 'id,message' });
    expect(oldest.status).toBe(400);

    // A lost reply cannot be called “not sent” when all 20 readable messages are newer than
    // the attempt: what came before them is out of sight.
    const lookup = await expectPlatformError(
      inbox.findSent!(account, dmThread(dm.senderId), 'Never sent', new Date(Date.now() - 60_000)),
    );
    expect(lookup.kind).toBe('transient');
    expect(lookup.message).toMatch(/cannot tell whether the reply went out/);

    const sent = await inbox.sendDm!(account, dmThread(dm.senderId), 'Merci ✨');
    expect((await sentBySandbox(ig, 'mia_studio')).map((m) => m.id)).toEqual([sent.externalId]);
    const tooLong = await expectPlatformError(
      inbox.sendDm!(account, dmThread(dm.senderId), 'é'.repeat(501)),
    );
    expect(tooLong.message).toMatch(/at most 1000 bytes/);
    await ig.advanceClock(25 * HOUR);
    const closed = await expectPlatformError(inbox.sendDm!(account, dmThread(dm.senderId), 'Hi?'));
    expect(closed.message).toMatch(/Instagram allows a reply only within 24 hours/);
    const agent = createInstagramInbox(ig.settings, { humanAgent: true });
    await agent.sendDm!(account, dmThread(dm.senderId), 'A person here.');
    expect((await sentBySandbox(ig, 'mia_studio')).map((m) => m.tag)).toEqual([
      null,
      'HUMAN_AGENT',
    ]);
  });

  it('polls comments and mentions, replies, hides, deletes and replies privately once', async () => {
    const account = await connectMeta(ig, 'Ned', 'ned_shop');
    const inbox = inboxOf(ig);
    const mediaId = await publishIgMedia(ig, account, 'Summer drop');
    const { id: commentId } = await ig.comment(mediaId, 'ola', 'Price?');
    await emuCall(ig.base, 'POST', 'inbox/mentions', {
      to: 'ned_shop',
      fromName: 'pia',
      text: 'Loving @ned_shop',
    });

    const first = await inbox.poll(account, null);
    expect(first.events.find((e) => e.externalId === commentId)).toMatchObject({
      kind: 'comment',
      threadExternalId: mediaId,
      direction: 'in',
      text: 'Price?',
      author: { username: 'ola' },
      rootPost: { externalId: mediaId, text: 'Summer drop' },
    });
    const mention = first.events.find((e) => e.kind === 'mention');
    expect(mention).toMatchObject({
      text: 'Loving @ned_shop',
      direction: 'in',
      author: { username: 'pia' },
    });
    expect(mention!.threadExternalId).toBe(mention!.externalId);
    const mentionReply = await inbox.replyToComment!(
      account,
      {
        kind: 'mention',
        threadExternalId: mention!.externalId,
        participantExternalId: 'pia',
        rootPostExternalId: mention!.externalId,
      },
      null,
      'Thank you!',
    );
    expect(mentionReply.externalId).toMatch(/^\d{17}$/);

    // Nothing new: the comment count did not change, so no comment is read again.
    const quiet = await inbox.poll(account, first.cursor);
    expect(quiet.events.filter((e) => e.kind === 'comment')).toHaveLength(0);

    const reply = await inbox.replyToComment!(account, commentThread(mediaId), commentId, '€20');
    const next = await inbox.poll(account, quiet.cursor);
    expect(next.events.find((e) => e.externalId === reply.externalId)).toMatchObject({
      direction: 'out',
      parentExternalId: commentId,
    });

    await inbox.privateReply!(account, commentId, 'Details in your DMs');
    const twice = await expectPlatformError(inbox.privateReply!(account, commentId, 'Again'));
    expect(twice.message).toMatch(/only one private reply/);

    const token = account.secrets.pageToken!;
    await inbox.hide!(account, commentId, true);
    expect((await graphCall(ig, 'GET', commentId, token, { fields: 'hidden' })).body.hidden).toBe(
      true,
    );
    await inbox.deleteComment!(account, commentId);
    expect((await graphCall(ig, 'GET', commentId, token, { fields: 'id' })).status).toBe(400);

    expect(await inbox.checkSubscription!(account)).toBe(false);
    await inbox.subscribe!(account);
    expect(await inbox.checkSubscription!(account)).toBe(true);
  });
});
