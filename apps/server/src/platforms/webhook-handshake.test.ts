import { describe, expect, it } from 'vitest';
import { Prng } from '../test/fuzz/prng.js';
import type { HandshakeAnswer, WebhookReceiver } from './inbox-types.js';
import { metaWebhookReceiver } from './meta/webhooks.js';
import { threadsWebhookReceiver } from './threads/webhooks.js';
import {
  answerHubChallenge,
  HANDSHAKE_TOKEN_MAX,
  handshakeTokenProblem,
} from './webhook-handshake.js';
import { xSignature, xWebhookReceiver } from './x/webhooks.js';

const SECRETS = { appSecret: 'the-app-secret', verifyToken: 'herald-verify' };

/** A delivery X would sign: the body an attacker wants a signature for. */
const X_DELIVERY = JSON.stringify({
  data: {
    event_uuid: '1',
    filter: { user_id: '1111111111111111111' },
    event_type: 'post.mention.create',
    tag: 'herald-inbox',
    payload: { id: '1800000000000000009', text: 'Transfer the account to me', author_id: '666' },
  },
});

const answered = (answer: HandshakeAnswer) =>
  answer !== null && !('malformed' in answer) ? answer : null;

/** What JSON.parse makes of a text, or undefined when it is no JSON. */
function asJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

describe('handshake tokens', () => {
  it('takes the tokens the networks send', () => {
    for (const token of [
      '9b4507b3-9040-4669-9ca3-6b94edb50553', // X, UUID
      'Qm9yZWQ_Pz8tZm9yLWEtY3JjLXRva2Vu', // X, base64url
      'Qm9yZWQ/Pz8rZm9yK2EtY3JjLXRva2Vu', // standard base64
      'Y2hhbGxlbmdl==', // padded
      '1158201444', // Meta
      'a'.repeat(HANDSHAKE_TOKEN_MAX),
    ]) {
      expect(handshakeTokenProblem('crc_token', token), token).toBeNull();
    }
  });

  it('refuses JSON, markup, spaces, control characters, unicode, arrays and long tokens', () => {
    for (const token of [
      X_DELIVERY,
      '{}',
      '"quoted"',
      '<script>alert(1)</script>',
      'two words',
      'nul\u0000byte',
      'line\nbreak',
      'café',
      'a=b',
      '===',
      '',
      'a'.repeat(HANDSHAKE_TOKEN_MAX + 1),
      'a'.repeat(100_000),
      ['a', 'b'],
      undefined,
    ]) {
      expect(handshakeTokenProblem('crc_token', token), JSON.stringify(token)).toMatch(/crc_token/);
    }
  });
});

describe('the X CRC is no signing oracle', () => {
  it('refuses a delivery body as crc_token (before, it answered the delivery’s signature)', () => {
    const answer = xWebhookReceiver.handshake({ crc_token: X_DELIVERY }, SECRETS);
    // The signature X puts on that delivery is nowhere in the answer.
    expect(JSON.stringify(answer)).not.toContain(xSignature(SECRETS.appSecret, X_DELIVERY));
    expect(answer).toEqual({ malformed: expect.stringMatching(/crc_token may hold only/) });
  });

  it('answers only tokens that no receiver takes as a delivery', () => {
    // Random texts over an alphabet rich in JSON's characters, and random well-formed tokens:
    // whatever the handshake answers must hold no `{`, so the HMAC it returns is never the
    // signature of a body a receiver would store.
    const prng = new Prng(20_260_724);
    const jsonish = '{}[]":,0123456789 truefalsn-_=abcXYZ\\/+\u0000é'.split('');
    const safe = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('');
    const receivers: WebhookReceiver[] = [
      xWebhookReceiver,
      metaWebhookReceiver,
      threadsWebhookReceiver,
    ];
    let accepted = 0;
    for (let i = 0; i < 4000; i++) {
      const alphabet = i % 2 === 0 ? jsonish : safe;
      const length = prng.int(1, i % 50 === 0 ? 400 : 60);
      let token = Array.from({ length }, () => prng.pick(alphabet)).join('');
      if (prng.chance(0.2)) token += '='.repeat(prng.int(1, 3));
      const answer = answered(xWebhookReceiver.handshake({ crc_token: token }, SECRETS));
      if (!answer) continue;
      accepted++;
      expect(token).not.toMatch(/[{}"\s]/);
      expect(token).not.toContain('\u0000');
      expect(token.length).toBeLessThanOrEqual(HANDSHAKE_TOKEN_MAX);
      const body = asJson(token);
      expect(typeof body === 'object' && body !== null).toBe(false);
      for (const receiver of receivers) {
        expect(receiver.deliveryProblem(body), `${receiver.provider} took ${token}`).not.toBeNull();
      }
    }
    // The property was tried on many accepted tokens, not vacuously.
    expect(accepted).toBeGreaterThan(1000);
  });
});

describe('Meta’s challenge', () => {
  const query = (challenge: string) => ({
    'hub.mode': 'subscribe',
    'hub.verify_token': SECRETS.verifyToken,
    'hub.challenge': challenge,
  });

  it('is echoed only as a bounded token of safe characters', () => {
    expect(answerHubChallenge(query('1158201444'), SECRETS.verifyToken)).toEqual({
      contentType: 'text/plain; charset=utf-8',
      body: '1158201444',
    });
    for (const challenge of ['<b>hi</b>', 'a'.repeat(100_000), '', 'x y', '{"a":1}']) {
      for (const receiver of [metaWebhookReceiver, threadsWebhookReceiver]) {
        expect(receiver.handshake(query(challenge), SECRETS)).toEqual({
          malformed: expect.stringMatching(/hub\.challenge/),
        });
      }
    }
  });

  it('is refused (null) without the verify token, whatever its shape', () => {
    expect(
      answerHubChallenge({ ...query('<b>hi</b>'), 'hub.verify_token': 'guess' }, 'herald-verify'),
    ).toBeNull();
  });
});
