import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandboxHarness, type SandboxHarness } from '../../test/graph-harness.js';
import {
  connectMeta,
  customerDm,
  dmThread,
  inboxOf,
  publishIgMedia,
  publishPagePost,
} from '../../test/meta-inbox.js';
import { emuCall } from '../../test/sandbox-harness.js';
import { network as facebook } from '../facebook/index.js';
import { network as instagram } from '../instagram/index.js';
import type { InboxMessageEvent } from '../inbox-types.js';
import type { MetaUrls } from './urls.js';
import { metaWebhookReceiver as receiver } from './webhooks.js';

/**
 * The Meta webhook receiver against bodies the Graph emulator's sender really delivers
 * (signed raw bytes, batches, duplicates, disorder), caught by a plain HTTP sink.
 */
const SECRET = 'sandbox-secret-for-tests';

interface Caught {
  headers: IncomingHttpHeaders;
  raw: Buffer;
}

let fb: SandboxHarness<MetaUrls>;
let ig: SandboxHarness<MetaUrls>;
let sink: Server;
let sinkUrl = '';
let caught: Caught[] = [];

beforeAll(async () => {
  sink = createServer((req, res) => {
    // Only deliveries are caught: the sandbox also reads Herald's media through the stand-in.
    if (req.method !== 'POST') return void res.writeHead(404).end();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      caught.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(200).end('EVENT_RECEIVED');
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}/api`;
  // The sandboxes deliver to Herald's receiver only; the harness carries that to the sink.
  const standIn = { heraldStandIn: () => sinkUrl };
  [fb, ig] = await Promise.all([
    startSandboxHarness(facebook, standIn),
    startSandboxHarness(instagram, standIn),
  ]);
});
afterAll(async () => {
  await new Promise((resolve) => sink?.close(resolve));
  await Promise.all([fb?.close(), ig?.close()]);
});
beforeEach(() => {
  caught = [];
});

/** Waits for the sandbox's deliveries, then returns what the sink got since the last call. */
async function delivered(h: SandboxHarness<MetaUrls>) {
  await emuCall(h.base, 'POST', 'webhooks/flush');
  const got = caught;
  caught = [];
  return got;
}

/** The events of a caught delivery, which Herald's route would take as the receiver's own. */
const eventsOf = (c: Caught) => {
  expect(receiver.deliveryProblem(JSON.parse(c.raw.toString('utf8')))).toBeNull();
  return receiver.parse(c.raw).map((e) => e.event as InboxMessageEvent);
};

describe('Meta webhook receiver: handshake', () => {
  const secrets = { appSecret: SECRET, verifyToken: 'herald-verify' };
  it('answers the challenge for the right verify token only', () => {
    expect(
      receiver.handshake(
        {
          'hub.mode': 'subscribe',
          'hub.verify_token': 'herald-verify',
          'hub.challenge': '1158201444',
        },
        secrets,
      ),
    ).toEqual({ contentType: 'text/plain; charset=utf-8', body: '1158201444' });
    expect(
      receiver.handshake(
        { 'hub.mode': 'subscribe', 'hub.verify_token': 'guess', 'hub.challenge': '1' },
        secrets,
      ),
    ).toBeNull();
    expect(
      receiver.handshake(
        { 'hub.mode': 'unsubscribe', 'hub.verify_token': 'herald-verify', 'hub.challenge': '1' },
        secrets,
      ),
    ).toBeNull();
    expect(
      receiver.handshake({ 'hub.mode': 'subscribe', 'hub.challenge': '1' }, secrets),
    ).toBeNull();
  });
});

describe('Meta webhook receiver: Facebook Page deliveries', () => {
  it('verifies the raw escaped-unicode bytes and parses the message as it was written', async () => {
    const page = await connectMeta(fb, 'Ola');
    // Nothing is delivered before the Page subscribed the app.
    await customerDm(fb, page.externalId, 'Zoë', 'Before subscribing');
    expect(await delivered(fb)).toHaveLength(0);
    await inboxOf(fb).subscribe!(page);

    const text = 'Crème brûlée 🍮 — ¿mañana?';
    const dm = await customerDm(fb, page.externalId, 'Zoë', text);
    const [one, ...rest] = await delivered(fb);
    expect(rest).toHaveLength(0);
    const raw = one!.raw.toString('utf8');
    expect(raw).toContain('Cr\\u00e8me br\\u00fbl\\u00e9e \\ud83c\\udf6e');
    expect(raw).not.toContain('è');
    expect(one!.headers['x-hub-signature']).toMatch(/^sha1=[0-9a-f]{40}$/);
    expect(receiver.verify(one!.raw, one!.headers, SECRET)).toBe(true);
    // The same JSON serialised again is not what Meta signed.
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(raw)));
    expect(receiver.verify(reserialised, one!.headers, SECRET)).toBe(false);
    // Forged, missing, or the wrong secret: refused.
    expect(
      receiver.verify(
        one!.raw,
        { ...one!.headers, 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
        SECRET,
      ),
    ).toBe(false);
    expect(receiver.verify(one!.raw, { 'content-type': 'application/json' }, SECRET)).toBe(false);
    expect(receiver.verify(one!.raw, one!.headers, 'another-secret')).toBe(false);

    const parsed = receiver.parse(one!.raw);
    expect(parsed).toEqual([
      {
        platform: 'Facebook',
        accountExternalId: page.externalId,
        event: expect.objectContaining({
          kind: 'dm',
          externalId: dm.messageIds[0],
          threadExternalId: dm.senderId,
          direction: 'in',
          text,
        }),
      },
    ]);

    // Our reply comes back as an echo: outgoing, in the customer's thread.
    const sent = await inboxOf(fb).sendDm!(page, dmThread(dm.senderId), 'Oui !');
    const [echo] = await delivered(fb);
    expect(eventsOf(echo!)).toEqual([
      expect.objectContaining({
        externalId: sent.externalId,
        direction: 'out',
        threadExternalId: dm.senderId,
        counterpart: expect.objectContaining({ externalId: dm.senderId }),
      }),
    ]);
  });

  it('batches, duplicates, reorders, forges and stops deliveries as the knobs say', async () => {
    const page = await connectMeta(fb, 'Pam');
    const inbox = inboxOf(fb);
    await inbox.subscribe!(page);

    // Several messages at once: one body, one entry, every message in it.
    const batch = await customerDm(fb, page.externalId, 'Quinn', ['one', 'two', 'three']);
    const [body] = await delivered(fb);
    expect(eventsOf(body!).map((e) => e.externalId)).toEqual(batch.messageIds);

    await fb.setKnob(page.externalId, 'webhook_duplicate');
    const dup = await customerDm(fb, page.externalId, 'Quinn', 'twice');
    const twice = await delivered(fb);
    expect(twice).toHaveLength(2);
    expect(twice[0]!.raw.equals(twice[1]!.raw)).toBe(true);
    expect(twice.flatMap(eventsOf).map((e) => e.externalId)).toEqual([
      dup.messageIds[0],
      dup.messageIds[0],
    ]);
    await fb.setKnob(page.externalId, 'webhook_duplicate', false);

    await fb.setKnob(page.externalId, 'webhook_out_of_order');
    const early = await customerDm(fb, page.externalId, 'Quinn', 'first');
    await emuCall(fb.base, 'POST', 'webhooks/flush', { release: false });
    expect(caught).toHaveLength(0);
    const late = await customerDm(fb, page.externalId, 'Quinn', 'second');
    await fb.setKnob(page.externalId, 'webhook_out_of_order', false);
    const reordered = await delivered(fb);
    const order = reordered.flatMap(eventsOf).map((e) => e.externalId);
    expect(order).toEqual([late.messageIds[0], early.messageIds[0]]);
    // The platform timestamps still tell the true order.
    const [second, first] = reordered.flatMap(eventsOf);
    expect(first!.createdAt.getTime()).toBeLessThanOrEqual(second!.createdAt.getTime());

    await fb.setKnob(page.externalId, 'webhook_bad_signature');
    await customerDm(fb, page.externalId, 'Quinn', 'forged');
    const [forged] = await delivered(fb);
    expect(receiver.verify(forged!.raw, forged!.headers, SECRET)).toBe(false);
    await fb.setKnob(page.externalId, 'webhook_bad_signature', false);

    // Meta disables the subscription: nothing arrives, the check notices, subscribing again heals.
    await fb.setKnob(page.externalId, 'webhook_disabled');
    await customerDm(fb, page.externalId, 'Quinn', 'lost');
    expect(await delivered(fb)).toHaveLength(0);
    expect(await inbox.checkSubscription!(page)).toBe(false);
    await fb.setKnob(page.externalId, 'webhook_disabled', false);
    await inbox.subscribe!(page);
    await customerDm(fb, page.externalId, 'Quinn', 'back');
    expect((await delivered(fb)).flatMap(eventsOf).map((e) => e.text)).toEqual(['back']);
  });

  it('turns feed comment changes into comment events', async () => {
    const page = await connectMeta(fb, 'Rex');
    await inboxOf(fb).subscribe!(page);
    const postId = await publishPagePost(fb, page, 'Opening hours');
    const { id } = await fb.comment(postId, 'Sam Lee', 'Open on Sunday?');
    const [body] = await delivered(fb);
    expect(eventsOf(body!)).toEqual([
      expect.objectContaining({
        kind: 'comment',
        externalId: id,
        threadExternalId: postId,
        parentExternalId: null,
        direction: 'in',
        text: 'Open on Sunday?',
        author: expect.objectContaining({ name: 'Sam Lee' }),
      }),
    ]);
  });

  it('reads edits, removals and hides of comments, and refuses what is not a Meta body', () => {
    const body = {
      object: 'page',
      entry: [
        {
          id: '111',
          time: 1_700_000_000_000,
          changes: [
            {
              field: 'feed',
              value: {
                item: 'comment',
                verb: 'edited',
                comment_id: '9_1',
                post_id: '9',
                parent_id: '9',
                from: { id: '5', name: 'A' },
                message: 'fixed',
                created_time: 1_700_000_000,
              },
            },
            {
              field: 'feed',
              value: {
                item: 'comment',
                verb: 'remove',
                comment_id: '9_2',
                post_id: '9',
                parent_id: '9_1',
                from: { id: '5' },
                created_time: 1_700_000_001,
              },
            },
            {
              field: 'feed',
              value: {
                item: 'comment',
                verb: 'hide',
                comment_id: '9_3',
                post_id: '9',
                parent_id: '9',
                created_time: 1_700_000_002,
              },
            },
            {
              field: 'feed',
              value: { item: 'reaction', verb: 'add', post_id: '9', reaction_type: 'like' },
            },
          ],
          messaging: [
            { sender: { id: '5' }, recipient: { id: '111' }, timestamp: 1, read: { watermark: 1 } },
            {
              sender: { id: '5' },
              recipient: { id: '111' },
              timestamp: 1_700_000_003_000,
              message_edit: { mid: 'm_1', text: 'Fixed typo', num_edit: 1 },
            },
          ],
        },
      ],
    };
    const events = receiver.parse(Buffer.from(JSON.stringify(body))).map((e) => e.event);
    expect(events.slice(1)).toEqual([
      expect.objectContaining({
        externalId: '9_1',
        edited: true,
        text: 'fixed',
        parentExternalId: null,
      }),
      expect.objectContaining({ externalId: '9_2', deleted: true, parentExternalId: '9_1' }),
      expect.objectContaining({ externalId: '9_3', hidden: true }),
    ]);
    expect(events.slice(0, 1)).toEqual([
      expect.objectContaining({
        kind: 'dm',
        externalId: 'm_1',
        text: 'Fixed typo',
        edited: true,
        threadExternalId: '5',
        direction: 'in',
      }),
    ]);
    expect(() => receiver.parse(Buffer.from('not json'))).toThrow();
    expect(() => receiver.parse(Buffer.from('{"object":"user","entry":[]}'))).toThrow();
    expect(() => receiver.parse(Buffer.from('{"object":"page"}'))).toThrow();
  });
});

describe('Meta webhook receiver: Instagram deliveries', () => {
  it('parses DMs, unsends, comments and mentions of the Instagram object', async () => {
    const account = await connectMeta(ig, 'Tia', 'tia_makes');
    await inboxOf(ig).subscribe!(account);

    const dm = await customerDm(ig, 'tia_makes', 'uma', 'Ça coûte combien ? 😊');
    const [message] = await delivered(ig);
    expect(receiver.verify(message!.raw, message!.headers, SECRET)).toBe(true);
    expect(receiver.parse(message!.raw)).toEqual([
      {
        platform: 'Instagram',
        accountExternalId: account.externalId,
        event: expect.objectContaining({
          kind: 'dm',
          externalId: dm.messageIds[0],
          threadExternalId: dm.senderId,
          text: 'Ça coûte combien ? 😊',
          direction: 'in',
        }),
      },
    ]);

    await emuCall(ig.base, 'POST', 'inbox/unsend', { messageId: dm.messageIds[0] });
    const [unsent] = await delivered(ig);
    expect(eventsOf(unsent!)).toEqual([
      expect.objectContaining({ externalId: dm.messageIds[0], deleted: true }),
    ]);

    const mediaId = await publishIgMedia(ig, account, 'New mugs');
    const { id: commentId } = await ig.comment(mediaId, 'vic', 'Want one');
    const [comment] = await delivered(ig);
    expect(eventsOf(comment!)).toEqual([
      expect.objectContaining({
        kind: 'comment',
        externalId: commentId,
        threadExternalId: mediaId,
        author: expect.objectContaining({ username: 'vic' }),
        text: 'Want one',
      }),
    ]);

    const mention = (await emuCall(ig.base, 'POST', 'inbox/mentions', {
      to: 'tia_makes',
      fromName: 'wes',
      text: 'Thanks @tia_makes',
      inComment: true,
    })) as { mediaId: string; commentId: string };
    const [mentioned] = await delivered(ig);
    expect(eventsOf(mentioned!)).toEqual([
      expect.objectContaining({
        kind: 'mention',
        externalId: mention.commentId,
        threadExternalId: mention.commentId,
        rootPost: expect.objectContaining({ externalId: mention.mediaId }),
      }),
    ]);
  });
});

describe('Meta webhook receiver: times', () => {
  it('reads the seconds of a changes entry and the milliseconds of a messaging entry as the same moment', () => {
    const seconds = 1_795_564_627;
    const body = Buffer.from(
      JSON.stringify({
        object: 'instagram',
        entry: [
          {
            id: 'ig-1',
            time: seconds,
            changes: [
              {
                field: 'comments',
                value: {
                  id: 'c-1',
                  text: 'Nice',
                  from: { id: 'u-1', username: 'ana' },
                  media: { id: 'm-1' },
                },
              },
            ],
          },
          {
            id: 'ig-1',
            time: seconds * 1000,
            messaging: [
              {
                sender: { id: 'u-1' },
                recipient: { id: 'ig-1' },
                timestamp: seconds * 1000,
                message: { mid: 'mid-1', text: 'Hello' },
              },
            ],
          },
        ],
      }),
    );
    const [comment, dm] = receiver.parse(body).map((a) => a.event);
    expect(comment!.createdAt.toISOString()).toBe(new Date(seconds * 1000).toISOString());
    expect(dm!.createdAt.toISOString()).toBe(new Date(seconds * 1000).toISOString());
  });
});
