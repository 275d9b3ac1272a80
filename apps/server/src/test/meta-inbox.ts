import type { SandboxHarness } from './graph-harness.js';
import { emuCall } from './sandbox-harness.js';
import type { InboxAdapter, InboxThreadRef } from '../platforms/inbox-types.js';
import type { StoredAccount } from '../platforms/types.js';
import type { MetaUrls } from '../platforms/meta/urls.js';

/** Shared steps of the Meta inbox tests (inbox.int.test.ts, webhooks.int.test.ts). */

export const IMAGE = 'http://localhost:3000/api/media/a.jpg?exp=4102444800&sig=x';

export async function connectMeta(
  h: SandboxHarness<MetaUrls>,
  name: string,
  instagram?: string,
): Promise<StoredAccount & { name: string | null }> {
  const fields: Record<string, string> = { account: name, pages: `${name} Page` };
  if (instagram) fields.instagram = instagram;
  const { code } = await h.authorize({ fields });
  const [a] = await h.adapter.connect({
    code: code!,
    redirectUri: h.redirectUri,
    codeVerifier: '',
  });
  return {
    externalId: a!.externalId,
    tokens: a!.tokens,
    extra: a!.extra ?? {},
    secrets: a!.secrets ?? {},
    name: a!.name,
  };
}

export const inboxOf = (h: SandboxHarness<MetaUrls>): InboxAdapter => h.adapter.inbox!;

export async function graphCall(
  h: SandboxHarness<MetaUrls>,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  token: string,
  params: Record<string, string> = {},
) {
  const query = method === 'POST' ? '' : `?${new URLSearchParams(params)}`;
  const res = await fetch(`${h.base}/v24.0/${path}${query}`, {
    method,
    headers: { authorization: `OAuth ${token}` },
    ...(method === 'POST' ? { body: new URLSearchParams(params) } : {}),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** A customer writes to the account (`POST /_emu/inbox/messages`). */
export const customerDm = (
  h: SandboxHarness<MetaUrls>,
  to: string,
  fromName: string,
  text: string | string[],
): Promise<{ conversationId: string; senderId: string; messageIds: string[] }> =>
  emuCall(h.base, 'POST', 'inbox/messages', {
    to,
    fromName,
    ...(Array.isArray(text) ? { texts: text } : { text }),
  });

export const sentBySandbox = async (h: SandboxHarness<MetaUrls>, account?: string) =>
  (
    (await emuCall(
      h.base,
      'GET',
      `inbox/sent${account ? `?account=${encodeURIComponent(account)}` : ''}`,
    )) as {
      messages: Array<{
        id: string;
        text: string;
        tag: string | null;
        privateReplyTo: string | null;
      }>;
    }
  ).messages;

export const dmThread = (customerId: string): InboxThreadRef => ({
  kind: 'dm',
  threadExternalId: customerId,
  participantExternalId: customerId,
  rootPostExternalId: null,
});

export const commentThread = (postId: string): InboxThreadRef => ({
  kind: 'comments',
  threadExternalId: postId,
  participantExternalId: '',
  rootPostExternalId: postId,
});

/** A Page post through the Graph API, as the Page. */
export async function publishPagePost(
  h: SandboxHarness<MetaUrls>,
  account: StoredAccount,
  text: string,
) {
  const { body } = await graphCall(
    h,
    'POST',
    `${account.externalId}/feed`,
    account.tokens.accessToken,
    {
      message: text,
    },
  );
  return body.id as string;
}

/** An Instagram image post through the Graph API. */
export async function publishIgMedia(
  h: SandboxHarness<MetaUrls>,
  account: StoredAccount,
  caption: string,
) {
  const token = account.secrets.pageToken ?? account.tokens.accessToken;
  const container = await graphCall(h, 'POST', `${account.externalId}/media`, token, {
    image_url: IMAGE,
    caption,
  });
  const published = await graphCall(h, 'POST', `${account.externalId}/media_publish`, token, {
    creation_id: container.body.id,
  });
  return published.body.id as string;
}
