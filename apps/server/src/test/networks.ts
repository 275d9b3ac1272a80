import type { FastifyInstance } from 'fastify';
import { listIntegrations } from '../modules/integrations/integrations.repository.js';
import { toStoredAccount } from '../modules/integrations/integrations.service.js';
import type { StoredAccount } from '../platforms/types.js';
import { send, TEST_PUBLIC_URL, type TestApp } from './app.js';
import { type Actor, createOrg } from './factories.js';

const pathOf = (location: string) => {
  const u = new URL(location, TEST_PUBLIC_URL);
  return `${u.pathname}${u.search}`;
};

/** Hidden and text inputs of the first form on a page, with its action. */
export function readForm(html: string) {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  if (!action) throw new Error(`No form on the page: ${html.slice(0, 300)}`);
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]+)"/.exec(m[0])?.[1];
    const value = /value="([^"]*)"/.exec(m[0])?.[1] ?? '';
    if (name)
      fields[name] = value
        .replace(/&amp;/g, '&')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>');
  }
  return { action: action.replace(/&amp;/g, '&'), fields };
}

/**
 * Connects an account the way a person does: Herald's connect URL → the network sandbox's
 * consent page → Approve (or Deny) → Herald's callback. Returns where Herald finally sends the
 * browser (/settings?connected=… | ?pick=… | ?connectError=…).
 */
export async function connectThroughSandbox(
  app: FastifyInstance,
  actor: Actor,
  slug: string,
  orgId: string,
  opts: {
    account?: string;
    decision?: 'approve' | 'deny';
    fields?: Record<string, string>;
    /** The connect kind, for networks with several (LinkedIn `organization`). */
    kind?: string;
    /** The server, for networks of many servers (Mastodon). */
    instance?: string;
  } = {},
) {
  const kind =
    (opts.kind ? `&kind=${encodeURIComponent(opts.kind)}` : '') +
    (opts.instance ? `&instance=${encodeURIComponent(opts.instance)}` : '');
  let res = await send(app, actor.jar, {
    method: 'GET',
    url: `/api/auth/${slug}?orgId=${orgId}${kind}`,
  });
  if (res.statusCode !== 302) throw new Error(`connect start: ${res.statusCode} ${res.body}`);
  let location = res.headers.location as string;
  if (!pathOf(location).startsWith('/api/sandbox/')) return location;
  res = await send(app, actor.jar, { method: 'GET', url: pathOf(location) });
  if (res.statusCode !== 200)
    throw new Error(`consent page: ${res.statusCode} ${res.body.slice(0, 300)}`);
  const form = readForm(res.body);
  // A sandbox account is one organization's: a person the page offers none of theirs signs in
  // as one named after them, not as the page's generic name another organization may hold.
  const offersNone = /<datalist id="known"><\/datalist>/.test(res.body);
  const account = opts.account ?? (offersNone ? actor.email.replace(/\W+/g, '_') : undefined);
  const fields = {
    ...form.fields,
    ...(account ? { account } : {}),
    ...(opts.fields ?? {}),
    decision: opts.decision ?? 'approve',
  };
  res = await send(app, actor.jar, {
    method: 'POST',
    url: pathOf(new URL(form.action, `${TEST_PUBLIC_URL}${pathOf(location)}`).href),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: TEST_PUBLIC_URL },
    payload: new URLSearchParams(fields).toString(),
  });
  location = res.headers.location as string;
  if (!location) throw new Error(`consent submit: ${res.statusCode} ${res.body.slice(0, 300)}`);
  res = await send(app, actor.jar, { method: 'GET', url: pathOf(location) });
  if (res.statusCode !== 302)
    throw new Error(`callback: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.headers.location as string;
}

/**
 * Connects `account` in a new organization of `email` through Herald's own flow and returns the
 * stored account as the publishing engine loads it (tokens decrypted). `fields` are the consent
 * page's other fields (Pages, Instagram accounts…).
 */
export async function connectStoredAccount(
  t: TestApp,
  slug: string,
  email: string,
  account: string,
  fields: Record<string, string> = {},
): Promise<StoredAccount> {
  const { owner, orgId } = await createOrg(t.app, email, `${account} Org`);
  const done = await connectThroughSandbox(t.app, owner, slug, orgId, { account, fields });
  if (!new URL(done).searchParams.get('connected')) throw new Error(`Not connected: ${done}`);
  const [row] = await listIntegrations(t.database.db, orgId);
  return toStoredAccount(t.cipher, row!.integration);
}
