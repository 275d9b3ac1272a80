import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inboxWebhookEvents } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { Prng } from '../../test/fuzz/prng.js';
import { WEBHOOK_RECEIVERS } from '../../platforms/inbox-receivers.js';
import { xSignature } from '../../platforms/x/webhooks.js';

/**
 * The real receivers behind `/api/webhooks/{provider}`: the handshakes take only the tokens the
 * networks send, and a signed delivery is stored only at its own network's address.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(() => t?.close());

const storedCount = async () => (await t.database.db.select().from(inboxWebhookEvents)).length;

const secretOf = (provider: string) => {
  const receiver = WEBHOOK_RECEIVERS.find((r) => r.provider === provider)!;
  return t.runtime.inbox.sync.appSecret(receiver)!;
};

/** Bodies as each network delivers them. */
const BODIES = {
  facebook: JSON.stringify({
    object: 'page',
    entry: [
      {
        id: 'page-1',
        time: 1784927148000,
        messaging: [
          {
            sender: { id: 'cust-1' },
            recipient: { id: 'page-1' },
            timestamp: 1784927148000,
            message: { mid: 'm-1', text: 'Hello' },
          },
        ],
      },
    ],
  }),
  instagram: JSON.stringify({
    object: 'instagram',
    entry: [
      {
        id: 'ig-1',
        time: 1784927148,
        changes: [
          {
            field: 'comments',
            value: { id: 'c-1', text: 'Nice', media: { id: 'media-1' }, from: { id: 'cust-2' } },
          },
        ],
      },
    ],
  }),
  threads: JSON.stringify({
    app_id: '123456',
    topic: 'moderate',
    target_id: '78901',
    time: 1723226877,
    subscription_id: '234567',
    has_uid_field: false,
    values: {
      value: {
        id: '8901234',
        username: 'someone',
        text: 'Reply',
        media_type: 'TEXT_POST',
        permalink: 'https://www.threads.net/@someone/post/Pp',
        replied_to: { id: '567890' },
        root_post: { id: '567890', owner_id: '78901', username: 'owner' },
        shortcode: 'Pp',
        timestamp: '2024-08-07T10:33:16+0000',
      },
      field: 'replies',
    },
  }),
  x: JSON.stringify({
    data: {
      event_uuid: '1',
      filter: { user_id: '1111111111111111111' },
      event_type: 'post.mention.create',
      tag: 'herald-inbox',
      payload: { id: '1800000000000000009', text: '@herald hello', author_id: '2222' },
    },
  }),
};
type Network = keyof typeof BODIES;

/** The address each network's deliveries go to. */
const HOME: Record<Network, string> = {
  facebook: 'meta',
  instagram: 'meta',
  threads: 'threads',
  x: 'x',
};

/** POSTs `body` to `/api/webhooks/{provider}`, signed as that provider's network signs. */
function post(provider: string, body: string, secret = secretOf(provider)) {
  const headers: Record<string, string> =
    provider === 'x'
      ? { 'x-twitter-webhooks-signature': xSignature(secret, body) }
      : {
          'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
        };
  return t.app.inject({
    method: 'POST',
    url: `/api/webhooks/${provider}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: body,
  });
}

const crc = (token: string, remoteAddress?: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/webhooks/x?crc_token=${encodeURIComponent(token)}`,
    ...(remoteAddress ? { remoteAddress } : {}),
  });

describe('the X CRC handshake', () => {
  it('refuses a delivery body as crc_token with 400, in the envelope', async () => {
    const res = await crc(BODIES.x, '10.0.0.1');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      status: 'error',
      code: 'VALIDATION_FAILED',
      message: expect.stringMatching(/crc_token may hold only/),
    });
    expect(res.body).not.toContain(xSignature(secretOf('x'), BODIES.x).slice('sha256='.length));
  });

  it('answers X’s tokens, and no answer it gives is taken as a delivery’s signature', async () => {
    const before = await storedCount();
    const prng = new Prng(7);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('');
    const tokens = [
      '9b4507b3-9040-4669-9ca3-6b94edb50553',
      '1234',
      'true',
      ...Array.from({ length: 6 }, () =>
        Array.from({ length: prng.int(20, 60) }, () => prng.pick(alphabet)).join(''),
      ),
    ];
    for (const token of tokens) {
      const res = await crc(token, '10.0.0.2');
      expect(res.statusCode).toBe(200);
      const { response_token: signature } = res.json() as { response_token: string };
      expect(signature).toBe(xSignature(secretOf('x'), token));
      // The answer is the signature of the token's bytes: offered as a delivery, it is refused.
      const forged = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/x',
        headers: { 'content-type': 'application/json', 'x-twitter-webhooks-signature': signature },
        payload: token,
      });
      expect(forged.statusCode, token).toBeGreaterThanOrEqual(400);
      expect(forged.statusCode, token).toBeLessThan(500);
      expect(forged.json()).toMatchObject({ status: 'error' });
    }
    expect(await storedCount()).toBe(before);
  });

  it('refuses a repeated crc_token with 400 and a sentence', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/webhooks/x?crc_token=abc&crc_token=def',
      remoteAddress: '10.0.0.3',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      status: 'error',
      code: 'VALIDATION_FAILED',
      message: 'Send each webhook verification parameter once; "crc_token" came more than once.',
    });
  });
});

describe('Meta’s handshake', () => {
  const verify = () => t.runtime.inbox.metaVerifyToken!;
  const get = (query: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/webhooks/meta?${query}`,
      remoteAddress: '10.0.0.4',
    });

  it('echoes a challenge of the network’s shape', async () => {
    for (const provider of ['meta', 'threads']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/webhooks/${provider}?hub.mode=subscribe&hub.verify_token=${verify()}&hub.challenge=1158201444`,
        remoteAddress: '10.0.0.4',
      });
      expect(res.statusCode, provider).toBe(200);
      expect(res.body).toBe('1158201444');
    }
  });

  it('refuses repeated parameters and a challenge that is not a bounded safe token', async () => {
    for (const query of [
      `hub.mode=subscribe&hub.mode=subscribe&hub.verify_token=${verify()}&hub.challenge=1`,
      `hub.mode=subscribe&hub.verify_token=${verify()}&hub.verify_token=${verify()}&hub.challenge=1`,
      `hub.mode=subscribe&hub.verify_token=${verify()}&hub.challenge=1&hub.challenge=2`,
    ]) {
      const res = await get(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toMatch(/came more than once/);
    }
    for (const challenge of ['<script>alert(1)</script>', 'a'.repeat(5000), '%00']) {
      const res = await get(
        `hub.mode=subscribe&hub.verify_token=${verify()}&hub.challenge=${encodeURIComponent(challenge)}`,
      );
      expect(res.statusCode, challenge.slice(0, 20)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(res.body).not.toContain('<script>');
    }
  });
});

describe('each receiver takes only its own network’s deliveries', () => {
  const cases = (Object.keys(BODIES) as Network[]).flatMap((network) =>
    ['meta', 'threads', 'x'].map((provider) => ({ network, provider })),
  );

  it.each(cases)(
    '$network at /webhooks/$provider, signed with that address’s secret',
    async ({ network, provider }) => {
      const before = await storedCount();
      // Signed with the secret of the address it is sent to: as when two networks share a secret.
      const res = await post(provider, BODIES[network]);
      if (HOME[network] === provider) {
        expect(res.statusCode).toBe(200);
        expect(await storedCount()).toBe(before + 1);
        return;
      }
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ status: 'error', code: 'VALIDATION_FAILED' });
      expect(await storedCount()).toBe(before);
    },
  );

  it('refuses a signed body that is not JSON, and stores nothing', async () => {
    const before = await storedCount();
    for (const provider of ['meta', 'threads', 'x']) {
      for (const body of ['', 'not json', '{"object":"page"', '\u0000']) {
        const res = await post(provider, body);
        expect(res.statusCode, `${provider} ${JSON.stringify(body)}`).toBe(400);
        expect(res.json()).toMatchObject({ status: 'error', code: 'BAD_REQUEST' });
      }
    }
    expect(await storedCount()).toBe(before);
  });
});

describe('the handshake rate limit', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ RATE_LIMIT_SIGNIN_PER_MINUTE: '3' });
  }, 60_000);
  afterAll(() => limited?.close());

  it('answers 429 past the allowance per IP, counted across providers, other IPs unaffected', async () => {
    const from = (remoteAddress: string, provider = 'x') =>
      limited.app.inject({
        method: 'GET',
        url: `/api/webhooks/${provider}?crc_token=abc`,
        remoteAddress,
      });
    expect((await from('10.1.0.1')).statusCode).toBe(200);
    expect((await from('10.1.0.1', 'meta')).statusCode).toBe(403);
    expect((await from('10.1.0.1')).statusCode).toBe(200);
    const refused = await from('10.1.0.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.json()).toMatchObject({
      status: 'error',
      code: 'RATE_LIMITED',
      message: expect.stringMatching(/Too many webhook verification requests/),
    });
    expect((await from('10.1.0.2')).statusCode).toBe(200);
  });
});
