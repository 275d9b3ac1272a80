import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { XUrls } from '../../platforms/x/api.js';
import { network } from '../../platforms/x/index.js';
import {
  HARNESS_REDIRECT_URI,
  pkcePair,
  startSandboxHarness,
  type SandboxHarness,
} from '../kit/harness.js';

let h: SandboxHarness<XUrls>;
beforeAll(async () => {
  h = await startSandboxHarness(network);
});
afterAll(async () => {
  await h?.close();
});

const basic = () =>
  `Basic ${Buffer.from(`herald-sandbox:${h.settings.clientSecret}`).toString('base64')}`;

async function token(fields: Record<string, string>, authorization = basic()) {
  const res = await fetch(`${h.base}/2/oauth2/token`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('X sandbox', () => {
  it('shows an error page, not a redirect, for an unknown client', async () => {
    const res = await fetch(
      `${h.base}/i/oauth2/authorize?${new URLSearchParams({ client_id: 'someone-else', redirect_uri: HARNESS_REDIRECT_URI })}`,
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('You weren’t able to give access to the App');
  });

  it('redirects with invalid_request when PKCE is missing', async () => {
    const landed = await h.authorize({
      alter: (url) => url.searchParams.delete('code_challenge'),
      state: 'p',
    });
    expect(landed.searchParams.get('error')).toBe('invalid_request');
    expect(landed.searchParams.get('state')).toBe('p');
  });

  it('lists the accounts signed in before on the consent page', async () => {
    await h.connectAs('Grace Hopper');
    const url = h.adapter.authorizeUrl({
      redirectUri: HARNESS_REDIRECT_URI,
      state: 's',
      codeChallenge: 'c',
    });
    const html = await (await fetch(url)).text();
    expect(html).toContain('<option value="grace_hopper">');
  });

  it('answers the token in X’s shape and /2/users/me with the requested fields', async () => {
    const { verifier, challenge } = pkcePair();
    const code = (
      await h.authorize({ account: 'shape', codeChallenge: challenge })
    ).searchParams.get('code')!;
    const { status, body } = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: HARNESS_REDIRECT_URI,
      code_verifier: verifier,
    });
    expect(status).toBe(200);
    expect(body).toEqual({
      token_type: 'bearer',
      expires_in: 7200,
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      scope: 'tweet.read tweet.write users.read media.write offline.access',
    });
    const me = await fetch(`${h.base}/2/users/me?user.fields=profile_image_url,verified_type`, {
      headers: { authorization: `Bearer ${body.access_token}` },
    });
    expect(((await me.json()) as any).data).toEqual({
      id: expect.stringMatching(/^\d{19}$/),
      name: 'shape',
      username: 'shape',
      profile_image_url: expect.stringMatching(/^data:image\/svg\+xml/),
      verified_type: 'none',
    });
  });

  it('issues no refresh token without offline.access', async () => {
    const { verifier, challenge } = pkcePair();
    const landed = await h.authorize({
      codeChallenge: challenge,
      alter: (url) => url.searchParams.set('scope', 'tweet.read users.read'),
    });
    const { body } = await token({
      grant_type: 'authorization_code',
      code: landed.searchParams.get('code')!,
      redirect_uri: HARNESS_REDIRECT_URI,
      code_verifier: verifier,
    });
    expect(body.refresh_token).toBeUndefined();
    expect(body.scope).toBe('tweet.read users.read');
  });

  it('wants the client in a Basic header', async () => {
    const { status, body } = await token(
      { grant_type: 'refresh_token', refresh_token: 'x' },
      'Bearer nope',
    );
    expect(status).toBe(401);
    expect(body.error).toBe('unauthorized_client');
  });

  it('approves at once with emu_auto=1', async () => {
    const landed = await h.authorize({
      alter: (url) => {
        url.searchParams.set('emu_auto', '1');
        url.searchParams.set('emu_account', 'auto_user');
      },
      state: 'auto',
    });
    expect(landed.searchParams.get('code')).toEqual(expect.any(String));
    expect(landed.searchParams.get('state')).toBe('auto');
  });

  it('refuses unknown knobs and accounts', async () => {
    const post = (body: unknown) =>
      fetch(`${h.base}/_emu/scenario`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ account: 'shape', knob: 'explode' })).status).toBe(400);
    expect((await post({ account: 'nobody_here', knob: 'token_revoked' })).status).toBe(404);
    expect(await (await post({ account: 'shape', knob: 'token_revoked' })).json()).toMatchObject({
      knobs: ['token_revoked'],
    });
  });
});
