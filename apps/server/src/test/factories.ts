import type { FastifyInstance } from 'fastify';
import type { CookieJar } from './app.js';
import { send, signInThroughDevProvider, TEST_PUBLIC_URL } from './app.js';

/** A signed-in person: their cookie jar and a JSON helper that sends it with a same-site Origin. */
export interface Actor {
  email: string;
  jar: CookieJar;
  userId: string;
  call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    url: string,
    body?: unknown,
  ): Promise<{ status: number; body: any; location?: string }>;
}

export async function signIn(
  app: FastifyInstance,
  email: string,
  name = email.split('@')[0]!,
): Promise<Actor> {
  const { jar } = await signInThroughDevProvider(app, email, name);
  const call: Actor['call'] = async (method, url, body) => {
    const res = await send(app, jar, {
      method,
      url,
      headers: {
        origin: TEST_PUBLIC_URL,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    return {
      status: res.statusCode,
      body:
        res.body && res.headers['content-type']?.toString().includes('json') ? res.json() : null,
      location: res.headers.location as string | undefined,
    };
  };
  const me = await call('GET', '/api/auth/me');
  return { email, jar, userId: me.body.data.user.id, call };
}

/** The id of a seeded plan by name (Starter, Basic, Pro). */
export async function planId(app: FastifyInstance, name: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url: '/api/plans' });
  const plan = (res.json().data.plans as Array<{ id: string; name: string }>).find(
    (p) => p.name === name,
  );
  if (!plan) throw new Error(`No plan named ${name}`);
  return plan.id;
}

/**
 * Signs someone in and has them create an organization; returns it with its roles by name.
 * The organization starts a free trial of `trial` (Pro by default, `null` for none), since
 * inviting needs a subscription.
 */
export async function createOrg(
  app: FastifyInstance,
  ownerEmail: string,
  name = 'Acme',
  opts: { trial?: string | null } = {},
) {
  const owner = await signIn(app, ownerEmail);
  const created = await owner.call('POST', '/api/organizations', { name });
  if (created.status !== 201)
    throw new Error(`createOrg: ${created.status} ${JSON.stringify(created.body)}`);
  const orgId: string = created.body.data.organization.id;
  const trial = opts.trial === undefined ? 'Pro' : opts.trial;
  if (trial) {
    const res = await owner.call('POST', `/api/organizations/${orgId}/subscribe/trial`, {
      planId: await planId(app, trial),
    });
    if (res.status !== 200) throw new Error(`trial: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const roles = (await owner.call('GET', `/api/organizations/${orgId}/roles`)).body as Array<{
    id: string;
    name: string;
  }>;
  const roleId = (roleName: string) => roles.find((r) => r.name === roleName)!.id;
  return { owner, orgId, roles, roleId };
}

/** Invites `email` into the organization and has them accept; returns the new member. */
export async function addMember(
  app: FastifyInstance,
  inviter: Actor,
  orgId: string,
  email: string,
  invite: { roleId?: string; permissions?: string[] } = {},
) {
  const invited = await inviter.call('POST', `/api/member/invite/${orgId}`, { email, ...invite });
  if (invited.status !== 201)
    throw new Error(`invite: ${invited.status} ${JSON.stringify(invited.body)}`);
  const token = new URL(invited.body.data.inviteUrl).searchParams.get('token')!;
  const member = await signIn(app, email);
  const accepted = await member.call('POST', '/api/member/accept-invite', { token });
  if (accepted.status !== 200)
    throw new Error(`accept: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return { actor: member, memberId: accepted.body.data.member.id as string, token };
}

/**
 * The cast of an access test: an organization at `domain` with its owner, a Content Creator and
 * a Customer Support member, and the owner of another organization (the outsider).
 */
export async function createOrgCast(app: FastifyInstance, domain: string, name: string) {
  const org = await createOrg(app, `owner@${domain}`, name);
  const member = async (email: string, role: string) =>
    (await addMember(app, org.owner, org.orgId, `${email}@${domain}`, { roleId: org.roleId(role) }))
      .actor;
  const creator = await member('creator', 'ContentCreator');
  const support = await member('support', 'CustomerSupport');
  const other = await createOrg(app, `outsider@${domain}`, 'Other Co');
  return { ...org, creator, support, outsider: other.owner, otherOrgId: other.orgId };
}
