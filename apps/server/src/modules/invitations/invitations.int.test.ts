import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { members } from '../../db/schema.js';
import { createMailer } from '../../lib/mailer.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addMember, createOrg, signIn } from '../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const tokenOf = (inviteUrl: string) => new URL(inviteUrl).searchParams.get('token')!;

describe('the invitation life cycle', () => {
  it('invites, lists as pending for the invitee, and accepting makes an active member with the narrowed permissions', async () => {
    const { owner, orgId, roleId } = await createOrg(t.app, 'inv.owner@example.com', 'Invite Co');
    const invited = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'Narrow@Example.com',
      roleId: roleId('ContentCreator'),
      permissions: ['post:create'],
    });
    expect(invited.status).toBe(201);
    expect(invited.body.data.member).toMatchObject({
      email: 'narrow@example.com',
      status: 'PENDING',
      roleId: roleId('ContentCreator'),
    });
    expect(invited.body.data.emailSent).toBe(false);
    expect(invited.body.data.inviteUrl).toMatch(/^http:\/\/localhost:3000\/invite\/accept\?token=/);

    const list = (await owner.call('GET', `/api/organizations/${orgId}/members`)).body.data.members;
    expect(list.find((m: { email: string }) => m.email === 'narrow@example.com')).toMatchObject({
      status: 'PENDING',
      user: null,
    });

    const invitee = await signIn(t.app, 'narrow@example.com');
    const pending = (await invitee.call('GET', '/api/member/pending')).body.data.pendingInvites;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({
      inviteToken: null,
      organization: { name: 'Invite Co' },
      inviter: { email: 'inv.owner@example.com' },
      role: { name: 'ContentCreator' },
    });

    const accepted = await invitee.call('POST', '/api/member/accept-invite', {
      token: tokenOf(invited.body.data.inviteUrl),
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.member).toMatchObject({
      orgId,
      organizationId: orgId,
      organization: { name: 'Invite Co' },
    });
    const me = (await invitee.call('GET', '/api/auth/me')).body.data.member;
    expect(me).toMatchObject({
      organizationId: orgId,
      status: 'ACTIVE',
      role: { name: 'ContentCreator' },
      permissions: ['post:create'],
    });
    expect((await invitee.call('GET', '/api/member/pending')).body.data.pendingInvites).toEqual([]);
    // The narrowed member cannot edit posts' roles etc.: what the role had beyond the narrowing is gone.
    expect(me.permissions).not.toContain('post:edit');
  });

  it('uses SocialMediaManager when the invite page sends only permissions', async () => {
    const { owner, orgId } = await createOrg(t.app, 'page.owner@example.com');
    const res = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'page.invitee@example.com',
      permissions: ['post:create', 'dm:view'],
    });
    expect(res.status).toBe(201);
    const { actor } = { actor: await signIn(t.app, 'page.invitee@example.com') };
    await actor.call('POST', '/api/member/accept-invite', {
      token: tokenOf(res.body.data.inviteUrl),
    });
    const me = (await actor.call('GET', '/api/auth/me')).body.data.member;
    expect(me.role.name).toBe('SocialMediaManager');
    expect(me.permissions).toEqual(['post:create', 'dm:view']);
  });

  it('refuses a token used twice, an expired one and one meant for another account', async () => {
    const { owner, orgId } = await createOrg(t.app, 'tokens.owner@example.com');
    const first = await addMember(t.app, owner, orgId, 'once@example.com');
    const reuse = await first.actor.call('POST', '/api/member/accept-invite', {
      token: first.token,
    });
    expect(reuse.status).toBe(409);
    expect(reuse.body.message).toBe('This invitation has already been accepted.');

    const late = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'late@example.com',
    });
    await t.database.db
      .update(members)
      .set({ inviteExpiresAt: sql`now() - interval '1 minute'` })
      .where(eq(members.id, late.body.data.member.id));
    const lateUser = await signIn(t.app, 'late@example.com');
    expect((await lateUser.call('GET', '/api/member/pending')).body.data.pendingInvites).toEqual(
      [],
    );
    const expired = await lateUser.call('POST', '/api/member/accept-invite', {
      token: tokenOf(late.body.data.inviteUrl),
    });
    expect(expired.status).toBe(410);
    expect(expired.body.message).toBe('This invitation has expired. Ask for a new one.');
    // An expired invitation can be sent again.
    expect(
      (await owner.call('POST', `/api/member/invite/${orgId}`, { email: 'late@example.com' }))
        .status,
    ).toBe(201);

    const meant = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'meant@example.com',
    });
    const wrong = await signIn(t.app, 'wrong.person@example.com');
    const refused = await wrong.call('POST', '/api/member/accept-invite', {
      token: tokenOf(meant.body.data.inviteUrl),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(
      'This invitation was sent to m***@example.com. Sign in with that address to accept it.',
    );
    expect((await wrong.call('GET', '/api/auth/me')).body.data.member).toBeNull();

    const bogus = await wrong.call('POST', '/api/member/accept-invite', {
      token: 'not-a-real-token',
    });
    expect(bogus.status).toBe(404);
    expect((await wrong.call('POST', '/api/member/accept-invite', {})).body.message).toContain(
      'Invalid invitation link.',
    );
  });

  it('records a decline on the server: the invitation is gone for good', async () => {
    const { owner, orgId } = await createOrg(t.app, 'decline.owner@example.com');
    const inv = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'decliner@example.com',
    });
    const decliner = await signIn(t.app, 'decliner@example.com');
    const id = inv.body.data.member.id;
    expect(
      (await decliner.call('POST', '/api/member/decline-invite', { invitationId: id })).status,
    ).toBe(200);
    expect((await decliner.call('GET', '/api/member/pending')).body.data.pendingInvites).toEqual(
      [],
    );
    const accept = await decliner.call('POST', '/api/member/accept-invite', {
      token: tokenOf(inv.body.data.inviteUrl),
    });
    expect(accept.status).toBe(409);
    const list = (await owner.call('GET', `/api/organizations/${orgId}/members`)).body.data.members;
    expect(list.map((m: { email: string }) => m.email)).not.toContain('decliner@example.com');
  });

  it('answers 409 for someone already a member or already invited', async () => {
    const { owner, orgId } = await createOrg(t.app, 'dupe.owner@example.com');
    const self = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'DUPE.owner@example.com',
    });
    expect(self.status).toBe(409);
    expect(self.body.message).toBe(
      'dupe.owner@example.com is already a member of this organization.',
    );
    await owner.call('POST', `/api/member/invite/${orgId}`, { email: 'twice@example.com' });
    const twice = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'twice@example.com',
    });
    expect(twice.status).toBe(409);
    expect(twice.body.message).toBe(
      'twice@example.com has already been invited to this organization.',
    );
  });

  it('refuses permissions beyond the role, beyond the inviter, unknown ones and bad emails', async () => {
    const { owner, orgId, roleId } = await createOrg(t.app, 'narrow.owner@example.com');
    const beyondRole = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'x1@example.com',
      roleId: roleId('ContentCreator'),
      permissions: ['post:create', 'billing:edit'],
    });
    expect(beyondRole.status).toBe(400);
    expect(beyondRole.body.message).toBe(
      "Permissions can only narrow the role's defaults: billing:edit is not part of ContentCreator.",
    );
    const unknown = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'x2@example.com',
      permissions: ['post:fly'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toContain('Unknown permission: post:fly.');
    const badEmail = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'not an email',
    });
    expect(badEmail.status).toBe(400);
    expect(badEmail.body.message).toContain('Please enter a valid email address');
    const badRole = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'x3@example.com',
      roleId: '00000000-0000-4000-8000-000000000000',
    });
    expect(badRole.status).toBe(400);
    expect(badRole.body.message).toBe('Selected role is invalid');

    // A manager who may invite but holds only some permissions cannot hand out the Admin role.
    const inviterRole = await owner.call('POST', `/api/organizations/${orgId}/roles`, {
      name: 'Recruiter',
      permissionIds: ['member:invite', 'post:create'],
    });
    const recruiter = await addMember(t.app, owner, orgId, 'recruiter@example.com', {
      roleId: inviterRole.body.data.role.id,
    });
    const escalate = await recruiter.actor.call('POST', `/api/member/invite/${orgId}`, {
      email: 'x4@example.com',
      roleId: roleId('Admin'),
    });
    expect(escalate.status).toBe(403);
    expect(escalate.body.message).toBe('Only an Admin can give the Admin role.');
    const beyond = await recruiter.actor.call('POST', `/api/member/invite/${orgId}`, {
      email: 'x4b@example.com',
      roleId: roleId('SocialMediaManager'),
    });
    expect(beyond.status).toBe(403);
    expect(beyond.body.message).toMatch(/^You cannot grant permissions you do not have yourself/);
    const fine = await recruiter.actor.call('POST', `/api/member/invite/${orgId}`, {
      email: 'x5@example.com',
      roleId: roleId('ContentCreator'),
      permissions: ['post:create'],
    });
    expect(fine.status).toBe(201);
    const list = (
      await owner.call('GET', `/api/organizations/${orgId}/members`)
    ).body.data.members.map((m: { email: string }) => m.email);
    expect(list).not.toEqual(
      expect.arrayContaining([
        'x1@example.com',
        'x2@example.com',
        'x3@example.com',
        'x4@example.com',
      ]),
    );
  });
});

describe('invitation emails', () => {
  it('sends the link through SMTP when SMTP_URL is set, and then does not show it to the inviter', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let text = '';
        stream.on('data', (c: Buffer) => (text += c.toString()));
        stream.on('end', () => {
          received.push(text);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.server.address() as { port: number }).port;
    const mailed = await createTestApp(
      {},
      { mailer: createMailer(`smtp://127.0.0.1:${port}`, 'Herald <no-reply@herald.test>') },
    );
    try {
      const { owner, orgId } = await createOrg(mailed.app, 'mailer.owner@example.com', 'Mail Co');
      const res = await owner.call('POST', `/api/member/invite/${orgId}`, {
        email: 'inbox@example.com',
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ emailSent: true, inviteUrl: null });
      expect(received).toHaveLength(1);
      const unfolded = received[0]!.replace(/=\r?\n/g, '');
      expect(unfolded).toMatch(/To: inbox@example\.com/);
      expect(unfolded).toContain('Mail Co');
      const link =
        /http:\/\/localhost:3000\/invite\/accept\?token=3D([A-Za-z0-9_-]+)|http:\/\/localhost:3000\/invite\/accept\?token=([A-Za-z0-9_-]+)/.exec(
          unfolded,
        );
      expect(link).not.toBeNull();
      const token = link![1] ?? link![2]!;
      const invitee = await signIn(mailed.app, 'inbox@example.com');
      expect((await invitee.call('POST', '/api/member/accept-invite', { token })).status).toBe(200);
    } finally {
      await mailed.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
