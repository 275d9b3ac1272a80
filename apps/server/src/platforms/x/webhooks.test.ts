import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { xWebhookReceiver } from './webhooks.js';

const ME = '1111111111111111111';
const CUSTOMER = '2222222222222222222';
const delivery = (data: unknown) => Buffer.from(JSON.stringify({ data }));

describe('X Activity API receiver', () => {
  it('answers the CRC with the base64 HMAC of the token under the app secret', () => {
    const answer = xWebhookReceiver.handshake(
      { crc_token: 'challenge-123' },
      { appSecret: 'app-secret', verifyToken: 'unused' },
    ) as { contentType: string; body: string };
    expect(answer.contentType).toBe('application/json');
    const expected = createHmac('sha256', 'app-secret').update('challenge-123').digest('base64');
    expect(JSON.parse(answer.body)).toEqual({ response_token: `sha256=${expected}` });
  });

  it('accepts only the signature of these exact bytes', () => {
    const body = delivery({ event_type: 'dm.read', filter: { user_id: ME } });
    const sig = `sha256=${createHmac('sha256', 's').update(body).digest('base64')}`;
    expect(xWebhookReceiver.verify(body, { 'x-twitter-webhooks-signature': sig }, 's')).toBe(true);
    const altered = Buffer.from(body.toString().replace('dm.read', 'dm.sent'));
    expect(xWebhookReceiver.verify(altered, { 'x-twitter-webhooks-signature': sig }, 's')).toBe(
      false,
    );
    expect(xWebhookReceiver.verify(body, { 'x-twitter-webhooks-signature': sig }, 'other')).toBe(
      false,
    );
  });

  it('reads dm.sent in the v1.1 shape as our message in the customer’s conversation', () => {
    const [addressed] = xWebhookReceiver.parse(
      delivery({
        event_uuid: '9',
        filter: { user_id: ME },
        event_type: 'dm.sent',
        payload: {
          direct_message_events: [
            {
              type: 'message_create',
              id: '1800000000000000001',
              created_timestamp: '1784927148000',
              message_create: {
                target: { recipient_id: CUSTOMER },
                sender_id: ME,
                message_data: { text: 'Thanks &amp; bye', entities: {} },
              },
            },
          ],
          users: { [CUSTOMER]: { data: { id: CUSTOMER, name: 'Cara', username: 'cara' } } },
        },
      }),
    );
    expect(addressed).toMatchObject({
      platform: 'X',
      accountExternalId: ME,
      event: {
        kind: 'dm',
        direction: 'out',
        externalId: '1800000000000000001',
        threadExternalId: `${ME}-${CUSTOMER}`,
        text: 'Thanks & bye',
        counterpart: { externalId: CUSTOMER, username: 'cara', profileUrl: 'https://x.com/cara' },
      },
    });
    expect(addressed!.event.createdAt.toISOString()).toBe('2026-07-24T21:05:48.000Z');
  });

  it('reads post.reply.create as a comment on our root post and ignores other events', () => {
    const events = xWebhookReceiver.parse(
      delivery({
        event_uuid: '10',
        filter: { user_id: ME },
        event_type: 'post.reply.create',
        payload: {
          id: '1800000000000000003',
          text: 'Replying to the reply',
          author_id: CUSTOMER,
          created_at: '2026-07-24T21:05:48.000Z',
          conversation_id: '1800000000000000001',
          in_reply_to_user_id: ME,
          referenced_tweets: [{ type: 'replied_to', id: '1800000000000000002' }],
          public_metrics: { like_count: 0, like_count_str: '0' },
        },
        includes: {
          users: [{ id: CUSTOMER, name: 'Rita', username: 'rita' }],
          tweets: [{ id: '1800000000000000001', text: 'Our post' }],
        },
      }),
    );
    expect(events.map((e) => e.event)).toEqual([
      expect.objectContaining({
        kind: 'comment',
        direction: 'in',
        threadExternalId: '1800000000000000001',
        parentExternalId: '1800000000000000002',
        rootPost: expect.objectContaining({ text: 'Our post' }),
        author: expect.objectContaining({ name: 'Rita' }),
      }),
    ]);
    expect(
      xWebhookReceiver.parse(
        delivery({ filter: { user_id: ME }, event_type: 'like.create', payload: {} }),
      ),
    ).toEqual([]);
    expect(() => xWebhookReceiver.parse(delivery({ event_type: 'dm.received' }))).toThrow();
  });
});
