import { escapeHtml } from '../kit/html.js';

/** One account a customer can write to, and its recent posts (for a comment). */
export interface InboxPageAccount {
  id: string;
  label: string;
  posts: Array<{ id: string; text: string }>;
}

/**
 * `GET /_emu/inbox`: a small page where a person plays the customer (docs/inbox.md#facebook-and-instagram): send a DM,
 * comment on a post, or (Instagram) mention the account. Each form posts to the same hooks tests
 * use; the sandbox's webhook then reaches Herald as Meta's would.
 */
export function renderInboxPage(opts: {
  network: 'Facebook' | 'Instagram';
  mountPath: string;
  /** The organization the page acts for: its forms act for it too. */
  organizationId: string | null;
  accounts: InboxPageAccount[];
  notice: string | null;
}) {
  const base = `${opts.mountPath}/_emu`;
  const forOrganization = opts.organizationId
    ? `?organizationId=${encodeURIComponent(opts.organizationId)}`
    : '';
  const accountOptions = opts.accounts
    .map((a) => `<option value="${escapeHtml(a.id)}">${escapeHtml(a.label)}</option>`)
    .join('');
  const postOptions = opts.accounts
    .flatMap((a) =>
      a.posts.map(
        (p) =>
          `<option value="${escapeHtml(p.id)}">${escapeHtml(a.label)}: ${escapeHtml(p.text.slice(0, 60) || p.id)}</option>`,
      ),
    )
    .join('');
  const noAccounts = opts.accounts.length === 0;
  const field = (id: string, label: string, input: string) =>
    `<label for="${id}">${label}</label>${input}`;
  const text = (id: string, name: string, value = '') =>
    `<input id="${id}" name="${name}" type="text" required value="${escapeHtml(value)}">`;
  const form = (title: string, action: string, body: string) =>
    `<section><h2>${title}</h2><form method="post" action="${escapeHtml(`${base}/${action}${forOrganization}`)}">${body}<button type="submit">Send</button></form></section>`;
  const customer = opts.network === 'Instagram' ? 'customer_one' : 'Casey Customer';

  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.network} sandbox — be a customer</title>
<style>
body{font-family:system-ui,sans-serif;background:#f1f5f9;color:#0f172a;margin:0;padding:1rem}
main{max-width:34rem;margin:0 auto} section{background:#fff;border:1px solid #cbd5e1;border-radius:1rem;padding:1.2rem;margin:1rem 0}
h1{font-size:1.3rem} h2{font-size:1.05rem;margin:0 0 .5rem} p{color:#334155}
label{display:block;font-weight:600;margin:.8rem 0 .3rem} input,select,textarea{width:100%;box-sizing:border-box;padding:.5rem;border:1px solid #64748b;border-radius:.5rem;font-size:1rem}
button{margin-top:1rem;padding:.6rem 1.2rem;border-radius:.5rem;border:0;background:#0f766e;color:#fff;font-weight:600;font-size:1rem;cursor:pointer}
[role=status]{background:#ecfdf5;border:1px solid #10b981;border-radius:.5rem;padding:.6rem}
</style></head>
<body><main>
<h1>${opts.network} sandbox: be a customer</h1>
<p>Write to a connected account as someone else would. Herald receives it through the sandbox's webhook (once the account is subscribed) or its next poll.</p>
${opts.notice ? `<p role="status">${escapeHtml(opts.notice)}</p>` : ''}
${
  noAccounts
    ? '<p>No account has signed in to this sandbox yet. Connect one in Herald first.</p>'
    : [
        form(
          'Send a direct message',
          'inbox/messages',
          field('dm-to', 'To', `<select id="dm-to" name="to">${accountOptions}</select>`) +
            field('dm-from', 'Your name', text('dm-from', 'fromName', customer)) +
            field(
              'dm-text',
              'Message',
              '<textarea id="dm-text" name="text" rows="3" required></textarea>',
            ),
        ),
        postOptions
          ? form(
              'Comment on a post',
              'inbox/comments',
              field('c-post', 'Post', `<select id="c-post" name="postId">${postOptions}</select>`) +
                field('c-from', 'Your name', text('c-from', 'fromName', customer)) +
                field(
                  'c-text',
                  'Comment',
                  '<textarea id="c-text" name="message" rows="2" required></textarea>',
                ),
            )
          : '<section><h2>Comment on a post</h2><p>There is no post yet: publish one from Herald first.</p></section>',
        opts.network === 'Instagram'
          ? form(
              'Mention the account',
              'inbox/mentions',
              field('m-to', 'Account', `<select id="m-to" name="to">${accountOptions}</select>`) +
                field('m-from', 'Your username', text('m-from', 'fromName', customer)) +
                field('m-text', 'Caption', text('m-text', 'text')),
            )
          : '',
      ].join('')
}
</main></body></html>`;
}
