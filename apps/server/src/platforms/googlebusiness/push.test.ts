import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createGoogleKeys,
  PushTokenError,
  readPushNotice,
  verifyPushToken,
  type PushExpectation,
} from './push.js';

const NOW = Date.UTC(2026, 11, 3, 12, 0, 0);
const JWKS = 'https://google.test/oauth2/v3/certs';
const expected: PushExpectation = {
  audience: 'https://herald.example/api/webhooks/googlebusiness',
  serviceAccountEmail: 'herald-push@acme.iam.gserviceaccount.com',
};

const google = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
const publicJwk = (key: KeyObject, kid: string) => ({
  ...key.export({ format: 'jwk' }),
  kid,
  alg: 'RS256',
  use: 'sig',
});

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

function tokenOf(
  claims: Record<string, unknown> = {},
  {
    key = google.privateKey,
    header = { alg: 'RS256', kid: 'k1', typ: 'JWT' } as Record<string, unknown>,
  } = {},
) {
  const body = b64({
    iss: 'https://accounts.google.com',
    aud: expected.audience,
    email: expected.serviceAccountEmail,
    email_verified: true,
    iat: NOW / 1000 - 10,
    exp: NOW / 1000 + 3590,
    sub: '1080000000',
    ...claims,
  });
  const head = b64(header);
  const signature = sign('RSA-SHA256', Buffer.from(`${head}.${body}`), key).toString('base64url');
  return `Bearer ${head}.${body}.${signature}`;
}

/** Google's JWKS endpoint, counting the reads Herald makes of it. */
function googleKeys(keys = [publicJwk(google.publicKey, 'k1')], maxAge = 3600) {
  const reads: string[] = [];
  let clock = NOW;
  const http = async (url: string) => {
    reads.push(url);
    return new Response(JSON.stringify({ keys }), {
      headers: { 'content-type': 'application/json', 'cache-control': `max-age=${maxAge}` },
    });
  };
  const keyOf = createGoogleKeys(http, JWKS, () => clock);
  return {
    reads,
    keyOf,
    tick: (ms: number) => {
      clock += ms;
    },
    setKeys: (next: typeof keys) => {
      keys.splice(0, keys.length, ...next);
    },
  };
}

const refusal = async (promise: Promise<unknown>) => {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PushTokenError);
  return (err as Error).message;
};

describe('the token of a Pub/Sub push', () => {
  it('is taken when Google signed it for this audience and service account', async () => {
    const { keyOf, reads } = googleKeys();
    const claims = await verifyPushToken(tokenOf(), expected, keyOf, NOW);
    expect(claims.email).toBe(expected.serviceAccountEmail);
    // The keys are read once, through the network's http, from Google's JWKS address.
    await verifyPushToken(tokenOf({ sub: 'another' }), expected, keyOf, NOW);
    expect(reads).toEqual([JWKS]);
  });

  it('is taken from either spelling of Google’s issuer, and with the e-mail in another case', async () => {
    const { keyOf } = googleKeys();
    await expect(
      verifyPushToken(
        tokenOf({ iss: 'accounts.google.com', email: 'Herald-Push@acme.iam.gserviceaccount.com' }),
        expected,
        keyOf,
        NOW,
      ),
    ).resolves.toBeTruthy();
  });

  it('is refused without a bearer token, or with something that is no JWT', async () => {
    const { keyOf } = googleKeys();
    expect(await refusal(verifyPushToken(undefined, expected, keyOf, NOW))).toMatch(/no bearer/);
    expect(await refusal(verifyPushToken('Basic abc', expected, keyOf, NOW))).toMatch(/no bearer/);
    expect(await refusal(verifyPushToken('Bearer a.b.c', expected, keyOf, NOW))).toMatch(
      /not a JWT/,
    );
  });

  it('is refused when signed by a key Google does not list, or its signature does not match', async () => {
    const { keyOf } = googleKeys();
    expect(
      await refusal(
        verifyPushToken(tokenOf({}, { key: stranger.privateKey }), expected, keyOf, NOW),
      ),
    ).toMatch(/signature does not match/);
    const forged = tokenOf({}, { key: stranger.privateKey, header: { alg: 'RS256', kid: 'k9' } });
    expect(await refusal(verifyPushToken(forged, expected, keyOf, NOW))).toMatch(
      /key Google does not list/,
    );
    // Words changed after signing.
    const [head, , signature] = tokenOf().slice('Bearer '.length).split('.');
    const changed = `Bearer ${head}.${b64({ aud: expected.audience, email: 'x@y.z' })}.${signature}`;
    expect(await refusal(verifyPushToken(changed, expected, keyOf, NOW))).toMatch(
      /signature does not match/,
    );
  });

  it('is refused when its algorithm is not RS256 (none, HMAC)', async () => {
    const { keyOf } = googleKeys();
    const unsigned = `Bearer ${b64({ alg: 'none', kid: 'k1' })}.${b64({ aud: expected.audience })}.`;
    expect(await refusal(verifyPushToken(unsigned, expected, keyOf, NOW))).toMatch(
      /no bearer|RS256/,
    );
    const hmac = tokenOf({}, { header: { alg: 'HS256', kid: 'k1' } });
    expect(await refusal(verifyPushToken(hmac, expected, keyOf, NOW))).toMatch(/RS256/);
  });

  it('is refused for another issuer, audience, service account, an unverified e-mail, or once expired', async () => {
    const { keyOf } = googleKeys();
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ iss: 'https://evil.example' }, /not issued by Google/],
      [{ aud: 'https://elsewhere.example/push' }, /another audience/],
      [{ email: 'someone@acme.iam.gserviceaccount.com' }, /another service account/],
      [{ email: undefined }, /another service account/],
      [{ email_verified: false }, /not verified/],
      [{ exp: NOW / 1000 - 3600 }, /expired/],
      [{ exp: undefined }, /expired/],
      [{ iat: NOW / 1000 + 3600 }, /future/],
    ];
    for (const [claims, why] of cases)
      expect(await refusal(verifyPushToken(tokenOf(claims), expected, keyOf, NOW))).toMatch(why);
  });

  it('keeps Google’s keys as long as its answer says, and reads them again for a new key at most once a minute', async () => {
    const google2 = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const { keyOf, reads, tick, setKeys } = googleKeys(undefined, 600);
    await verifyPushToken(tokenOf(), expected, keyOf, NOW);
    expect(reads).toHaveLength(1);
    // Google rotates: a token signed by the new key reads the keys again.
    setKeys([publicJwk(google.publicKey, 'k1'), publicJwk(google2.publicKey, 'k2')]);
    const rotated = tokenOf({}, { key: google2.privateKey, header: { alg: 'RS256', kid: 'k2' } });
    tick(61_000);
    await verifyPushToken(rotated, expected, keyOf, NOW + 61_000);
    expect(reads).toHaveLength(2);
    // Forged kids one after the other cost no more reads within the minute.
    const forged = tokenOf({}, { key: stranger.privateKey, header: { alg: 'RS256', kid: 'nope' } });
    await refusal(verifyPushToken(forged, expected, keyOf, NOW + 61_000));
    await refusal(verifyPushToken(forged, expected, keyOf, NOW + 61_000));
    expect(reads).toHaveLength(2);
    // Past max-age, the keys are read again.
    tick(600_000);
    await verifyPushToken(tokenOf(), expected, keyOf, NOW + 661_000);
    expect(reads).toHaveLength(3);
  });
});

const push = (notification: unknown, extra: Record<string, unknown> = {}) => ({
  message: {
    data: Buffer.from(JSON.stringify(notification)).toString('base64'),
    messageId: '1234567890',
    publishTime: '2026-12-03T12:00:00.000Z',
    attributes: {},
    ...extra,
  },
  subscription: 'projects/acme/subscriptions/herald',
});

describe('the notice of a Pub/Sub push', () => {
  it('names the location of a new or updated review, however Google spells the field', () => {
    for (const notification of [
      {
        type: 'NEW_REVIEW',
        locationName: 'accounts/1/locations/22',
        reviewName: 'accounts/1/locations/22/reviews/r',
      },
      { type: 'UPDATED_REVIEW', location_name: 'accounts/1/locations/22' },
      { type: 'NEW_REVIEW', review: 'accounts/1/locations/22/reviews/r' },
    ])
      expect(readPushNotice(push(notification))).toMatchObject({
        messageId: '1234567890',
        type: notification.type,
        locationId: '22',
      });
  });

  it('ignores notifications that are not about reviews', () => {
    expect(
      readPushNotice(push({ type: 'GOOGLE_UPDATE', locationName: 'accounts/1/locations/2' })),
    ).toBeNull();
  });

  it('says what is wrong with a body that is no push', () => {
    expect(readPushNotice({})).toMatch(/no message/);
    expect(readPushNotice(null)).toMatch(/no message/);
    expect(readPushNotice(push({}, { data: undefined }))).toMatch(/no id or no data/);
    expect(readPushNotice(push({}, { data: Buffer.from('nope').toString('base64') }))).toMatch(
      /not a JSON notification/,
    );
    expect(readPushNotice(push({ type: 'NEW_REVIEW' }))).toMatch(/names no location/);
  });
});
