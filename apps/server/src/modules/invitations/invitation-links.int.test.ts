import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailMessage } from '../../lib/mailer.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { addMember, createOrg, signIn, type Actor } from '../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const tokenOf = (inviteUrl: string) => new URL(inviteUrl).searchParams.get('token')!;

async function messagesOf(actor: Actor, orgId: string): Promise<string[]> {
  const res = await actor.call('GET', `/api/notifications?organizationId=${orgId}`);
  expect(res.status).toBe(200);
  return (res.body as Array<{ message: string }>).map((n) => n.message);
}

describe('copying a pending invitation link again', () => {
  it('issues a fresh link that works, while the previous link is refused', async () => {
    const { owner, orgId } = await createOrg(t.app, 'copy.owner@example.com', 'Copy Co');
    const invited = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'copied@example.com',
    });
    const oldToken = tokenOf(invited.body.data.inviteUrl);
    const memberId = invited.body.data.member.id as string;

    const copied = await owner.call(
      'POST',
      `/api/organizations/${orgId}/invitations/${memberId}/link`,
    );
    expect(copied.status).toBe(200);
    const newToken = tokenOf(copied.body.data.inviteUrl);
    expect(newToken).not.toBe(oldToken);

    const invitee = await signIn(t.app, 'copied@example.com');
    const stale = await invitee.call('POST', '/api/member/accept-invite', { token: oldToken });
    expect(stale.status).toBe(404);
    const fresh = await invitee.call('POST', '/api/member/accept-invite', { token: newToken });
    expect(fresh.status).toBe(200);

    const again = await owner.call(
      'POST',
      `/api/organizations/${orgId}/invitations/${memberId}/link`,
    );
    expect(again.status).toBe(404);
  });

  it('needs member:invite, and only reaches invitations of the same organization', async () => {
    const { owner, orgId, roleId } = await createOrg(t.app, 'copy2.owner@example.com', 'Copy Two');
    const { actor: creator } = await addMember(t.app, owner, orgId, 'creator2@example.com', {
      roleId: roleId('ContentCreator'),
    });
    const invited = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'someone2@example.com',
    });
    const memberId = invited.body.data.member.id as string;
    const refused = await creator.call(
      'POST',
      `/api/organizations/${orgId}/invitations/${memberId}/link`,
    );
    expect(refused.status).toBe(403);

    const other = await createOrg(t.app, 'copy3.owner@example.com', 'Elsewhere');
    const foreign = await other.owner.call(
      'POST',
      `/api/organizations/${other.orgId}/invitations/${memberId}/link`,
    );
    expect(foreign.status).toBe(404);
  });
});

describe('resending an invitation email', () => {
  it('is refused when Herald has no mailer, and the members list says so', async () => {
    const { owner, orgId } = await createOrg(t.app, 'nomail.owner@example.com', 'No Mail');
    const invited = await owner.call('POST', `/api/member/invite/${orgId}`, {
      email: 'nomail@example.com',
    });
    const list = await owner.call('GET', `/api/organizations/${orgId}/members`);
    expect(list.body.meta.invitationEmail).toBe(false);
    const res = await owner.call(
      'POST',
      `/api/organizations/${orgId}/invitations/${invited.body.data.member.id}/resend`,
    );
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/SMTP_URL/);
  });

  it('sends the email again with a fresh link when a mailer exists; the old link stops working', async () => {
    const sent: MailMessage[] = [];
    const mailed = await createTestApp(
      {},
      { mailer: { send: async (m) => void sent.push(m) }, database: t.database },
    );
    try {
      const { owner, orgId } = await createOrg(mailed.app, 'resend.owner@example.com', 'Resend Co');
      const list = await owner.call('GET', `/api/organizations/${orgId}/members`);
      expect(list.body.meta.invitationEmail).toBe(true);
      const invited = await owner.call('POST', `/api/member/invite/${orgId}`, {
        email: 'resent@example.com',
      });
      expect(invited.body.data.emailSent).toBe(true);
      expect(sent).toHaveLength(1);
      const linkIn = (m: MailMessage) => /token=([A-Za-z0-9_-]+)/.exec(m.text)![1]!;
      const first = linkIn(sent[0]!);

      const res = await owner.call(
        'POST',
        `/api/organizations/${orgId}/invitations/${invited.body.data.member.id}/resend`,
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ emailSent: true });
      expect(sent).toHaveLength(2);
      expect(sent[1]!.to).toBe('resent@example.com');
      const second = linkIn(sent[1]!);
      expect(second).not.toBe(first);

      const invitee = await signIn(mailed.app, 'resent@example.com');
      expect(
        (await invitee.call('POST', '/api/member/accept-invite', { token: first })).status,
      ).toBe(404);
      expect(
        (await invitee.call('POST', '/api/member/accept-invite', { token: second })).status,
      ).toBe(200);
    } finally {
      await mailed.close();
    }
  });
});

describe('admins hear about members joining and leaving', () => {
  it('notifies admins when someone accepts, leaves, or is removed', async () => {
    const { owner, orgId, roleId } = await createOrg(t.app, 'news.owner@example.com', 'News Co');
    const { actor: joiner, memberId: joinerId } = await addMember(
      t.app,
      owner,
      orgId,
      'joiner@example.com',
      { roleId: roleId('ContentCreator') },
    );
    expect(await messagesOf(owner, orgId)).toContainEqual(
      expect.stringMatching(/joiner.*joiner@example\.com.*joined News Co/),
    );
    expect(await messagesOf(joiner, orgId)).not.toContainEqual(expect.stringMatching(/joined/));

    const left = await joiner.call('DELETE', `/api/organizations/${orgId}/members/${joinerId}`);
    expect(left.status).toBe(200);
    expect(await messagesOf(owner, orgId)).toContainEqual(
      expect.stringMatching(/joiner@example\.com\) left News Co\./),
    );

    const { memberId: removedId } = await addMember(t.app, owner, orgId, 'removed@example.com', {
      roleId: roleId('ContentCreator'),
    });
    const removed = await owner.call('DELETE', `/api/organizations/${orgId}/members/${removedId}`);
    expect(removed.status).toBe(200);
    // The admin who removed them did it themselves: only other admins would hear.
    expect(await messagesOf(owner, orgId)).not.toContainEqual(expect.stringMatching(/was removed/));
    const { actor: second } = await addMember(t.app, owner, orgId, 'second.admin@example.com', {
      roleId: roleId('Admin'),
    });
    const { memberId: thirdId } = await addMember(t.app, owner, orgId, 'third@example.com', {
      roleId: roleId('ContentCreator'),
    });
    await owner.call('DELETE', `/api/organizations/${orgId}/members/${thirdId}`);
    expect(await messagesOf(second, orgId)).toContainEqual(
      expect.stringMatching(/third@example\.com\) was removed from News Co by /),
    );
  });
});
