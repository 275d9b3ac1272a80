import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOGO_MAX_BYTES } from '@herald/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, send, TEST_PUBLIC_URL, type TestApp } from '../../test/app.js';
import { addMember, createOrg, type Actor } from '../../test/factories.js';
import { gif, jpeg, mp4, png, webp } from '../../test/media-fixtures.js';
import { multipart } from '../../test/multipart.js';

let t: TestApp;
let dir: string;
let owner: Actor;
let orgId: string;
let manager: Actor;
let outsider: Actor;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'herald-branding-'));
  t = await createTestApp({ MEDIA_DIR: join(dir, 'store'), MEDIA_TEMP_DIR: join(dir, 'tmp') });
  const org = await createOrg(t.app, 'brand.owner@example.com', 'Brand Co');
  ({ owner, orgId } = org);
  manager = (
    await addMember(t.app, owner, orgId, 'brand.manager@example.com', {
      roleId: org.roleId('SocialMediaManager'),
    })
  ).actor;
  outsider = (await createOrg(t.app, 'brand.outsider@example.com', 'Elsewhere')).owner;
}, 120_000);

afterAll(async () => {
  await t?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function uploadLogo(actor: Actor, org: string, name: string, type: string, data: Buffer) {
  const body = await multipart({}, [{ name, type, data, field: 'logo' }]);
  const res = await send(t.app, actor.jar, {
    method: 'PUT',
    url: `/api/organizations/${org}/branding/logo`,
    headers: { ...body.headers, origin: TEST_PUBLIC_URL },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() };
}

/** The stored files of the organization (the logo's, and nothing left behind). */
const storedFiles = async () =>
  (await readdir(join(dir, 'store', orgId)).catch(() => [] as string[])).sort();

/** Fetches a signed media URL from the app, as a browser or a guest page would. */
async function fetchSigned(url: string) {
  const { pathname, search } = new URL(url);
  return t.app.inject({ method: 'GET', url: `${pathname}${search}` });
}

describe('the organization logo', () => {
  it('is uploaded, shown on the organization as a signed URL, and replaced', async () => {
    const first = await uploadLogo(owner, orgId, 'logo.png', 'image/png', await png(400, 200));
    expect(first.status).toBe(200);
    const url: string = first.body.data.organization.branding.logoUrl;
    expect(url).toMatch(/\/media\/.+\/brand-logo-.+\.png\?exp=\d+&sig=/);
    const served = await fetchSigned(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect((await storedFiles()).filter((f) => f.startsWith('brand-logo-'))).toHaveLength(1);

    // The record other screens read carries it too, for any member.
    const read = await manager.call('GET', `/api/organizations/${orgId}`);
    expect(read.status).toBe(200);
    expect(read.body.data.organization.branding.logoUrl).toMatch(/brand-logo-.+\.png/);

    // A JPEG replaces it; the PNG leaves storage.
    const second = await uploadLogo(owner, orgId, 'logo.jpg', 'image/jpeg', await jpeg(300, 300));
    expect(second.status).toBe(200);
    expect(second.body.data.organization.branding.logoUrl).toMatch(/\.jpg\?/);
    const files = (await storedFiles()).filter((f) => f.startsWith('brand-logo-'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/\.jpg$/);
    expect((await fetchSigned(url)).statusCode).toBe(404);

    const third = await uploadLogo(owner, orgId, 'logo.webp', 'image/webp', await webp(200, 200));
    expect(third.status).toBe(200);
    expect(third.body.data.organization.branding.logoUrl).toMatch(/\.webp\?/);
  });

  it('is removed with its file', async () => {
    await uploadLogo(owner, orgId, 'logo.png', 'image/png', await png(64, 64));
    const res = await owner.call('DELETE', `/api/organizations/${orgId}/branding/logo`);
    expect(res.status).toBe(200);
    expect(res.body.data.organization.branding.logoUrl).toBeNull();
    expect((await storedFiles()).filter((f) => f.startsWith('brand-logo-'))).toEqual([]);
  });

  it('refuses what is not a PNG, JPEG or WebP picture, or too large, with a sentence', async () => {
    const animated = await uploadLogo(owner, orgId, 'spin.gif', 'image/gif', await gif());
    expect(animated.status).toBe(400);
    expect(animated.body.message).toBe(
      'spin.gif is a GIF image. The logo must be a PNG, JPEG or WebP image.',
    );

    const text = await uploadLogo(
      owner,
      orgId,
      'logo.png',
      'image/png',
      Buffer.from('%PDF-1.7\n'.repeat(600)),
    );
    expect(text.status).toBe(400);
    expect(text.body.message).toMatch(/^logo\.png is not an image or video Herald can read/);
    expect(text.body.message).toMatch(/The logo must be a PNG, JPEG or WebP image\.$/);

    const video = await uploadLogo(owner, orgId, 'clip.mp4', 'video/mp4', await mp4());
    expect(video.status).toBe(400);
    expect(video.body.message).toBe(
      'clip.mp4 is a video. The logo must be a PNG, JPEG or WebP image.',
    );

    // A PNG's start and then more bytes than a logo may have: refused as it streams.
    const header = await png(32, 32);
    const large = Buffer.concat([header, Buffer.alloc(LOGO_MAX_BYTES + 1024)]);
    const tooLarge = await uploadLogo(owner, orgId, 'huge.png', 'image/png', large);
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.message).toBe('huge.png is too large: Herald accepts files up to 2 MB.');

    // A body that breaks off inside the file.
    const form = await multipart({}, [
      { name: 'logo.png', type: 'image/png', data: await png(400, 400), field: 'logo' },
    ]);
    const cut = await send(t.app, owner.jar, {
      method: 'PUT',
      url: `/api/organizations/${orgId}/branding/logo`,
      headers: { ...form.headers, origin: TEST_PUBLIC_URL },
      payload: form.payload.subarray(0, Math.floor(form.payload.length / 2)),
    });
    expect(cut.statusCode).toBe(400);
    expect(cut.json().message).toBe(
      'The multipart body is malformed or ends early. Send the form again.',
    );

    const json = await owner.call('PUT', `/api/organizations/${orgId}/branding/logo`, {});
    expect(json.status).toBe(415);
    expect(json.body.message).toMatch(/multipart\/form-data: one image file/);

    // Nothing was stored by the refusals, and no logo is set.
    expect((await storedFiles()).filter((f) => f.startsWith('brand-logo-'))).toEqual([]);
    const read = await owner.call('GET', `/api/organizations/${orgId}`);
    expect(read.body.data.organization.branding.logoUrl).toBeNull();
  });

  it('is changed only by members who manage the organization, and only their own', async () => {
    const data = await png(64, 64);
    const refused = await uploadLogo(manager, orgId, 'logo.png', 'image/png', data);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/Manage Organization/);
    const foreign = await uploadLogo(outsider, orgId, 'logo.png', 'image/png', data);
    expect(foreign.status).toBe(403);
    expect(foreign.body.message).toBe('You are not a member of this organization.');
    expect((await storedFiles()).filter((f) => f.startsWith('brand-logo-'))).toEqual([]);
  });
});

describe('the brand colour', () => {
  it('is stored as #rrggbb, removed with null, and refused when it is not a hex colour', async () => {
    const set = await owner.call('PUT', `/api/organizations/${orgId}/branding`, {
      color: '1D4ED8',
    });
    expect(set.status).toBe(200);
    expect(set.body.data.organization.branding.color).toBe('#1d4ed8');
    const short = await owner.call('PUT', `/api/organizations/${orgId}/branding`, {
      color: '#F0A',
    });
    expect(short.body.data.organization.branding.color).toBe('#ff00aa');
    expect(
      (await manager.call('GET', `/api/organizations/${orgId}`)).body.data.organization.branding
        .color,
    ).toBe('#ff00aa');

    for (const color of ['blue', '#12345', 'rgb(1,2,3)', 12]) {
      const bad = await owner.call('PUT', `/api/organizations/${orgId}/branding`, { color });
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe(
        'The body is invalid: color: Write the colour as a hex code such as #1d4ed8.',
      );
    }

    const cleared = await owner.call('PUT', `/api/organizations/${orgId}/branding`, {
      color: null,
    });
    expect(cleared.body.data.organization.branding.color).toBeNull();

    const refused = await manager.call('PUT', `/api/organizations/${orgId}/branding`, {
      color: '#000000',
    });
    expect(refused.status).toBe(403);
  });
});
