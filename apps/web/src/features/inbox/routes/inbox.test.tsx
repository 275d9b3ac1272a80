import type { InboxAccount, InboxConversation, InboxMessage, InboxNote } from '@herald/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { clearTypists } from '@/lib/inbox';
import { createMe } from '@/testing/factories';
import { FakeEventSource } from '@/testing/fake-event-source';
import { deferred, fail, ok, type FakeReply, type Handler } from '@/testing/fake-server';
import {
  conversationsPage,
  createConversation,
  createInboxAccount,
  createInboxMessage,
  createInboxNote,
  summaryReply,
  threadReply,
} from '@/testing/inbox-fixtures';
import { mockServer, renderApp } from '@/testing/render-app';

const ORG = 'org_1';
const base = `/organizations/${ORG}/inbox`;

afterEach(() => clearTypists());

const maya = createConversation({ id: 'conv_maya', title: 'Maya Chen', unread: true });
const comments = createConversation({
  id: 'conv_post',
  platform: 'Facebook',
  kind: 'comments',
  title: 'Comments on Spring launch',
  post: {
    postId: null,
    externalId: 'p1',
    permalink: 'https://fb.example/p1',
    text: 'Spring launch',
  },
  window: { open: true, closesAt: null, reason: null },
  capabilities: {
    reply: true,
    privateReply: true,
    like: true,
    hide: true,
    deleteOnNetwork: true,
    block: false,
    replyMaxLength: 8000,
    replyAttachments: [],
  },
  lastMessage: {
    text: 'Love it!',
    at: '2026-03-10T09:00:00.000Z',
    direction: 'in',
    senderName: 'Sam',
  },
  lastMessageAt: '2026-03-10T09:00:00.000Z',
});

interface Thread {
  conversation: InboxConversation;
  messages?: InboxMessage[];
  notes?: InboxNote[];
}

/** One page of saved replies, with the cursor of the next one (null: the last page). */
const savedRepliesPage = (
  savedReplies: Array<{ id: string; title: string; text: string }>,
  nextCursor: string | null = null,
): FakeReply => ({
  status: 200,
  body: { status: 'success', data: { savedReplies }, meta: { nextCursor } },
});

async function renderInbox({
  conversations = [maya, comments],
  threads = [] as Thread[],
  summary = summaryReply({
    unreadCount: 1,
    accounts: [
      createInboxAccount({ platform: 'Instagram', name: 'Studio IG' }),
      createInboxAccount({ platform: 'Facebook', name: 'Studio Page' }),
    ],
  }),
  me = createMe({ user: { id: 'usr_ada', displayName: 'Ada Lovelace' } }),
  routes = {} as Record<string, Handler | FakeReply>,
  path = '/inbox',
} = {}) {
  const server = mockServer({
    me,
    routes: {
      [`GET ${base}/summary`]: summary,
      [`GET ${base}/conversations`]: conversationsPage(conversations),
      [`GET ${base}/saved-replies`]: savedRepliesPage([
        { id: 'sr_1', title: 'Thanks', text: 'Thank you for writing to us!' },
      ]),
      [`GET /organizations/${ORG}/members`]: {
        status: 200,
        body: {
          status: 'success',
          data: {
            members: [
              {
                id: 'mem_bo',
                email: 'bo@example.com',
                status: 'ACTIVE',
                roleId: 'role_support',
                role: { id: 'role_support', name: 'CustomerSupport' },
                permissions: ['dm:view', 'dm:send'],
                accountIds: null,
                user: { id: 'usr_bo', displayName: 'Bo Berg', avatarUrl: null },
                joinedAt: '2026-01-01T00:00:00.000Z',
                invitedAt: null,
                organizationId: ORG,
              },
            ],
          },
          meta: { page: 1, pageSize: 200, totalCount: 1 },
        },
      },
      ...Object.fromEntries(
        threads.flatMap((t) => [
          [
            `GET ${base}/conversations/${t.conversation.id}`,
            threadReply(t.conversation, t.messages ?? [], t.notes ?? []),
          ],
          [
            `PATCH ${base}/conversations/${t.conversation.id}`,
            (request: { body: unknown }) =>
              ok({ conversation: { ...t.conversation, ...(request.body as object) } }),
          ],
          [`POST ${base}/conversations/${t.conversation.id}/typing`, ok({})],
        ]),
      ),
      ...routes,
    },
  });
  const app = renderApp(path);
  await screen.findByRole('heading', { name: 'Inbox', level: 1 });
  return { ...app, server };
}

const listRequests = (server: Awaited<ReturnType<typeof renderInbox>>['server']) =>
  server.requests.filter((r) => r.method === 'GET' && r.path === `${base}/conversations`);
const lastListQuery = (server: Awaited<ReturnType<typeof renderInbox>>['server']) =>
  listRequests(server).at(-1)?.query;

const list = () => screen.getByRole('list', { name: 'Conversations' });
const thread = () => screen.getByRole('region', { name: 'Conversation' });

describe('/inbox list', () => {
  it('shows the conversations with network, last message, unread dot, and the spec texts', async () => {
    await renderInbox();
    expect(await screen.findByText('Select a conversation to start chatting')).toBeInTheDocument();
    const row = await within(await screen.findByRole('list', { name: 'Conversations' })).findByRole(
      'button',
      { name: /Maya Chen/ },
    );
    expect(row).toHaveTextContent('Is the spring collection out yet?');
    expect(within(row).getByText('Unread')).toBeInTheDocument();
    expect(
      within(list()).getByRole('button', { name: /Comments on Spring launch/ }),
    ).toHaveTextContent('Facebook, Comments');
  });

  it('says Loading conversations... while the list loads and No messages found when empty', async () => {
    const later = deferred<FakeReply>();
    await renderInbox({ routes: { [`GET ${base}/conversations`]: () => later.promise } });
    expect(screen.getByText('Loading conversations...')).toBeInTheDocument();
    later.resolve(conversationsPage([]));
    expect(await screen.findByText('No messages found')).toBeInTheDocument();
  });

  it('asks the server for the chosen tab, labels, search, status and assignee', async () => {
    const { user, server } = await renderInbox();
    await screen.findByRole('list', { name: 'Conversations' });
    expect(lastListQuery(server)?.get('tab')).toBe('all');
    expect(lastListQuery(server)?.get('status')).toBe('open');

    const tabs = screen.getByRole('tablist', { name: 'Conversations to show' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['All', 'Unread', 'Instagram', 'Facebook']);
    await user.click(within(tabs).getByRole('tab', { name: 'Unread' }));
    await waitFor(() => expect(lastListQuery(server)?.get('tab')).toBe('unread'));
    await user.click(within(tabs).getByRole('tab', { name: 'Instagram' }));
    await waitFor(() => expect(lastListQuery(server)?.get('tab')).toBe('Instagram'));

    const labelFilter = screen.getByRole('button', { name: 'Labels filter' });
    expect(labelFilter).toHaveAttribute('aria-expanded', 'false');
    await user.click(labelFilter);
    const labels = screen.getByRole('group', { name: 'Labels' });
    expect(within(labels).getAllByRole('button', { pressed: false })).toHaveLength(7);
    expect(within(labels).getByRole('button', { name: 'Manage labels' })).toBeInTheDocument();
    await user.click(within(labels).getByRole('button', { name: 'Complaint' }));
    await user.click(within(labels).getByRole('button', { name: 'Order' }));
    await waitFor(() => expect(lastListQuery(server)?.get('labels')).toBe('complaint,order'));
    expect(screen.getByRole('button', { name: 'Labels filter (2)' })).toBeInTheDocument();
    await user.click(within(labels).getByRole('button', { name: 'Clear all' }));
    await waitFor(() => expect(lastListQuery(server)?.has('labels')).toBe(false));
    expect(within(labels).queryByRole('button', { name: 'Clear all' })).toBeNull();

    await user.type(screen.getByRole('searchbox', { name: 'Search conversations' }), 'spring');
    await waitFor(() => expect(lastListQuery(server)?.get('q')).toBe('spring'));

    await user.click(
      within(screen.getByRole('group', { name: 'Status' })).getByRole('button', { name: 'Done' }),
    );
    await waitFor(() => expect(lastListQuery(server)?.get('status')).toBe('done'));

    await user.selectOptions(screen.getByRole('combobox', { name: 'Assigned to' }), 'me');
    await waitFor(() => expect(lastListQuery(server)?.get('assignee')).toBe('me'));
  });

  describe('the note about the accounts', () => {
    const THREADS_LIMIT = 'Threads has no API for direct messages; comments and mentions arrive.';
    const sixAccounts = (...more: InboxAccount[]) =>
      summaryReply({
        accounts: [
          createInboxAccount({
            integrationId: 'int_x',
            platform: 'X',
            name: 'Studio X',
            limitation: 'X bills every message read; DMs arrive only while X metrics are on.',
          }),
          createInboxAccount({
            integrationId: 'int_fb',
            platform: 'Facebook',
            name: 'Studio Page',
            historyNote: 'Facebook history starts when the Page was connected.',
          }),
          createInboxAccount({
            integrationId: 'int_ig',
            platform: 'Instagram',
            name: 'Studio IG',
            historyNote: 'Instagram gives only the 20 newest messages of each conversation.',
          }),
          createInboxAccount({
            integrationId: 'int_threads',
            platform: 'Threads',
            name: 'Studio Threads',
            dm: false,
            limitation: THREADS_LIMIT,
          }),
          createInboxAccount({
            integrationId: 'int_tiktok',
            platform: 'TikTok',
            name: 'Studio TikTok',
            dm: false,
            comments: false,
            mentions: false,
            limitation: 'TikTok has no API for direct messages or comments.',
          }),
          createInboxAccount({
            integrationId: 'int_li',
            platform: 'LinkedIn',
            name: 'Studio LinkedIn',
            dm: false,
            limitation: 'LinkedIn has no API for direct messages.',
            syncError: 'Reconnect Studio LinkedIn on LinkedIn in Settings.',
          }),
          ...more,
        ],
      });

    it('is one line for six accounts with limits, and the list stays usable', async () => {
      const { user, router } = await renderInbox({
        summary: sixAccounts(),
        threads: [{ conversation: maya }],
      });
      const note = await screen.findByRole('region', { name: 'About your accounts' });
      expect(screen.getAllByRole('region', { name: 'About your accounts' })).toHaveLength(1);
      expect(note).toHaveTextContent(
        '3 of 6 accounts bring in messages and comments · 1 needs attention',
      );
      // The sentences wait behind Details; none of them is on the page yet.
      expect(screen.queryByText(THREADS_LIMIT)).toBeNull();
      expect(within(note).getAllByRole('button')).toHaveLength(2);

      const list = screen.getByRole('list', { name: 'Conversations' });
      await user.click(within(list).getByRole('button', { name: /Maya Chen/ }));
      await waitFor(() => expect(router.state.location.search).toBe('?c=conv_maya'));
    });

    it('says on demand what each account brings in and what not', async () => {
      const { user } = await renderInbox({ summary: sixAccounts() });
      const note = await screen.findByRole('region', { name: 'About your accounts' });
      const details = within(note).getByRole('button', { name: 'Details' });
      expect(details).toHaveAttribute('aria-expanded', 'false');
      await user.click(details);
      expect(details).toHaveAttribute('aria-expanded', 'true');
      const panel = screen.getByRole('dialog', { name: 'What each account brings in' });
      const items = within(panel).getAllByRole('listitem');
      expect(items).toHaveLength(6);
      const threads = items.find((li) => li.textContent?.includes('Studio Threads'))!;
      expect(threads).toHaveTextContent('Brings in comments and mentions.');
      expect(threads).toHaveTextContent(THREADS_LIMIT);
      const tiktok = items.find((li) => li.textContent?.includes('Studio TikTok'))!;
      expect(tiktok).toHaveTextContent('Brings in nothing to the inbox.');
      const linkedin = items.find((li) => li.textContent?.includes('Studio LinkedIn'))!;
      expect(linkedin).toHaveTextContent('Reconnect Studio LinkedIn on LinkedIn in Settings.');

      await user.keyboard('{Escape}');
      expect(screen.queryByRole('dialog', { name: 'What each account brings in' })).toBeNull();
      expect(details).toHaveFocus();
    });

    it('stays away once dismissed, after a reload, until what it says changes', async () => {
      const { user, unmount } = await renderInbox({ summary: sixAccounts() });
      const note = await screen.findByRole('region', { name: 'About your accounts' });
      await user.click(
        within(note).getByRole('button', { name: 'Dismiss the note about your accounts' }),
      );
      expect(screen.queryByRole('region', { name: 'About your accounts' })).toBeNull();
      unmount();

      const again = await renderInbox({ summary: sixAccounts() });
      await screen.findByRole('list', { name: 'Conversations' });
      expect(screen.queryByRole('region', { name: 'About your accounts' })).toBeNull();
      again.unmount();

      // Another member on this browser still sees it.
      const other = await renderInbox({
        summary: sixAccounts(),
        me: createMe({ user: { id: 'usr_bo', displayName: 'Bo Berg' } }),
      });
      await screen.findByRole('region', { name: 'About your accounts' });
      other.unmount();

      // A new sentence (a sync problem) brings it back.
      await renderInbox({
        summary: sixAccounts(
          createInboxAccount({
            integrationId: 'int_ig2',
            name: 'Second IG',
            syncError: 'Instagram did not answer.',
          }),
        ),
      });
      expect(await screen.findByRole('region', { name: 'About your accounts' })).toHaveTextContent(
        '3 of 7 accounts bring in messages and comments · 2 need attention',
      );
    });
  });

  describe('a Google Business Profile location', () => {
    const location = createInboxAccount({
      integrationId: 'int_gbp',
      platform: 'Google Business Profile',
      name: 'Corner Bakery',
      dm: false,
      comments: true,
      mentions: false,
      reviews: true,
      limitation:
        'Google Business Profile has no messages in its API: its inbox is the location’s reviews.',
    });
    const review = createConversation({
      id: 'conv_review',
      integrationId: 'int_gbp',
      platform: 'Google Business Profile',
      kind: 'comments',
      title: 'Paula Baker',
      rating: 4,
      lastMessage: {
        text: 'Great croissants',
        at: '2026-03-10T11:00:00.000Z',
        direction: 'in',
        senderName: 'Paula Baker',
      },
      lastMessageAt: '2026-03-10T11:00:00.000Z',
      window: { open: true, closesAt: null, reason: null },
    });

    it('counts as bringing its messages in: its reviews are all the network has', async () => {
      const { user } = await renderInbox({
        summary: summaryReply({
          accounts: [createInboxAccount({ platform: 'Instagram', name: 'Studio IG' }), location],
        }),
      });
      const note = await screen.findByRole('region', { name: 'About your accounts' });
      expect(note).toHaveTextContent('All 2 accounts bring in messages and comments');
      await user.click(within(note).getByRole('button', { name: 'Details' }));
      const panel = screen.getByRole('dialog', { name: 'What each account brings in' });
      const bakery = within(panel)
        .getAllByRole('listitem')
        .find((li) => li.textContent?.includes('Corner Bakery'))!;
      expect(bakery).toHaveTextContent('Brings in reviews.');
    });

    it('says so of the one account when it is the only one', async () => {
      await renderInbox({ summary: summaryReply({ accounts: [location] }) });
      expect(await screen.findByRole('region', { name: 'About your accounts' })).toHaveTextContent(
        'The account brings in its messages and comments',
      );
    });

    it('shows a review’s stars in the list and the thread, named for screen readers', async () => {
      const { user } = await renderInbox({
        conversations: [review, maya],
        threads: [
          {
            conversation: review,
            messages: [
              createInboxMessage({
                conversationId: 'conv_review',
                kind: 'comment',
                sender: { name: 'Paula Baker', username: null, pictureUrl: null, teammate: null },
                text: 'Great croissants',
                rating: 4,
              }),
            ],
          },
        ],
      });
      const list = await screen.findByRole('list', { name: 'Conversations' });
      const row = within(list).getByRole('button', { name: /Paula Baker/ });
      expect(within(row).getByRole('img', { name: '4 out of 5 stars' })).toBeInTheDocument();
      // The words stay words: no star characters in the text.
      expect(row).toHaveTextContent('Great croissants');
      expect(row.textContent).not.toMatch(/[★☆]/);
      expect(row).toHaveTextContent('Review');
      // A conversation that is no review has no stars.
      const other = within(list).getByRole('button', { name: /Maya Chen/ });
      expect(within(other).queryByRole('img', { name: /out of 5/ })).toBeNull();
      expect(other).not.toHaveTextContent('Review');

      await user.click(row);
      const thread = await screen.findByRole('heading', { name: 'Paula Baker', level: 2 });
      expect(thread).toBeInTheDocument();
      expect(screen.getByText(/Review on /)).toBeInTheDocument();
      const bubble = (await screen.findByText('Great croissants', { selector: 'p' })).closest(
        'article, li, div',
      )!;
      expect(
        within(bubble.parentElement!).getByRole('img', { name: '4 out of 5 stars' }),
      ).toBeInTheDocument();
    });
  });

  it('moves with ↓/j and ↑/k, opens with Enter and goes back with Escape', async () => {
    const { user, router } = await renderInbox({
      threads: [{ conversation: maya }, { conversation: comments }],
    });
    const first = await within(
      await screen.findByRole('list', { name: 'Conversations' }),
    ).findByRole('button', { name: /Maya Chen/ });
    first.focus();
    await user.keyboard('j');
    const second = within(list()).getByRole('button', { name: /Comments on Spring launch/ });
    expect(second).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(first).toHaveFocus();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(
      await screen.findByRole('heading', { name: 'Comments on Spring launch', level: 2 }),
    ).toBeInTheDocument();
    expect(router.state.location.search).toBe('?c=conv_post');
    expect(second).toHaveAttribute('aria-current', 'true');

    await user.click(screen.getByRole('textbox', { name: 'Reply' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByText('Select a conversation to start chatting')).toBeInTheDocument();
  });
});

describe('/inbox thread', () => {
  const dmMessages = [
    createInboxMessage({
      conversationId: maya.id,
      text: 'Is the spring collection out yet?',
      createdAt: '2026-03-10T10:00:00.000Z',
      attachments: [
        {
          type: 'image',
          url: 'https://cdn.example/p.jpg',
          previewUrl: null,
          title: 'Jacket photo',
        },
      ],
    }),
    createInboxMessage({
      conversationId: maya.id,
      direction: 'out',
      text: 'Yes, since Monday!',
      createdAt: '2026-03-10T10:10:00.000Z',
      sender: {
        name: 'Studio IG',
        username: 'studio',
        pictureUrl: null,
        teammate: { id: 'usr_ada', displayName: 'Ada Lovelace' },
      },
      delivery: 'sent',
    }),
  ];
  const note = createInboxNote({
    conversationId: maya.id,
    text: 'VIP customer, answer first.',
    createdAt: '2026-03-10T10:05:00.000Z',
  });

  it('opens a conversation: marks it read, messages and notes by time, attachments inline', async () => {
    const { user, server } = await renderInbox({
      threads: [{ conversation: maya, messages: dmMessages, notes: [note] }],
    });
    await user.click(
      await within(await screen.findByRole('list', { name: 'Conversations' })).findByRole(
        'button',
        { name: /Maya Chen/ },
      ),
    );

    const messages = await screen.findByRole('list', { name: 'Messages' });
    const items = within(messages).getAllByRole('article');
    expect(items.map((a) => a.getAttribute('aria-label'))).toEqual([
      'Message from Maya Chen',
      'Note by Bo Berg',
      'Reply from Ada Lovelace',
    ]);
    expect(within(items[1]!).getByText('Only your team sees notes')).toBeInTheDocument();
    expect(within(items[0]!).getByRole('img', { name: 'Jacket photo' })).toHaveAttribute(
      'src',
      'https://cdn.example/p.jpg',
    );
    expect(within(items[2]!).getByText('Sent')).toBeInTheDocument();
    await waitFor(() =>
      expect(server.requests.find((r) => r.method === 'PATCH')?.body).toEqual({ unread: false }),
    );
  });

  it('says No messages yet. Start a conversation! for an empty thread', async () => {
    await renderInbox({ threads: [{ conversation: maya }], path: `/inbox?c=${maya.id}` });
    expect(await screen.findByText('No messages yet. Start a conversation!')).toBeInTheDocument();
  });

  it('sends on Enter, adds a line on Shift+Enter, refuses a blank reply', async () => {
    const sent = createInboxMessage({
      conversationId: maya.id,
      direction: 'out',
      text: 'Hi\nthere',
      delivery: 'pending',
    });
    const stored: InboxMessage[] = [];
    const { user, server } = await renderInbox({
      threads: [{ conversation: maya }],
      path: `/inbox?c=${maya.id}`,
      routes: {
        [`GET ${base}/conversations/${maya.id}`]: () => threadReply(maya, stored),
        [`POST ${base}/conversations/${maya.id}/messages`]: () => {
          stored.push(sent);
          return ok({ message: sent });
        },
      },
    });
    const box = await screen.findByRole('textbox', { name: 'Reply' });
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();

    await user.type(box, '   ');
    expect(send).toBeDisabled();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('Reply cannot be empty.');
    expect(server.count(`POST ${base}/conversations/${maya.id}/messages`)).toBe(0);

    await user.clear(box);
    await user.type(box, 'Hi{Shift>}{Enter}{/Shift}there');
    expect(box).toHaveValue('Hi\nthere');
    expect(server.count(`POST ${base}/conversations/${maya.id}/messages`)).toBe(0);
    await user.keyboard('{Enter}');

    await waitFor(() => expect(box).toHaveValue(''));
    const posts = server.requests.filter(
      (r) => r.path === `${base}/conversations/${maya.id}/messages`,
    );
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body).toEqual({ text: 'Hi\nthere', clientKey: expect.any(String) });
    expect(await screen.findByText('Sending…')).toBeInTheDocument();
  });

  it('keeps the clientKey of a draft when the send is retried, and makes a new one for the next draft', async () => {
    let calls = 0;
    const { user, server } = await renderInbox({
      threads: [{ conversation: maya }],
      path: `/inbox?c=${maya.id}`,
      routes: {
        [`POST ${base}/conversations/${maya.id}/messages`]: () => {
          calls += 1;
          return calls === 1
            ? fail(503, 'UNAVAILABLE', 'Instagram did not answer. Please try again.')
            : ok({
                message: createInboxMessage({
                  conversationId: maya.id,
                  direction: 'out',
                  delivery: 'sent',
                }),
              });
        },
      },
    });
    const box = await screen.findByRole('textbox', { name: 'Reply' });
    await user.type(box, 'Hello{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Instagram did not answer. Please try again.',
    );
    expect(box).toHaveValue('Hello');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(box).toHaveValue(''));
    await user.type(box, 'Next one{Enter}');
    await waitFor(() => expect(calls).toBe(3));

    const keys = server.requests
      .filter((r) => r.path === `${base}/conversations/${maya.id}/messages`)
      .map((r) => (r.body as { clientKey: string }).clientKey);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('disables the reply box with the reason when the window is closed, but notes still work', async () => {
    const closed = {
      ...maya,
      window: {
        open: false,
        closesAt: '2026-03-09T10:00:00.000Z',
        reason: "Instagram allows replies only within 24 hours of the customer's last message.",
      },
    };
    const { user } = await renderInbox({
      threads: [{ conversation: closed }],
      path: `/inbox?c=${maya.id}`,
    });
    const box = await screen.findByRole('textbox', { name: 'Reply' });
    expect(box).toBeDisabled();
    expect(box).toHaveAccessibleDescription(/only within 24 hours/);
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Note' }));
    expect(screen.getByRole('textbox', { name: 'Note' })).toBeEnabled();
  });

  it('shows the time left in an open window and the characters left', async () => {
    const soon = {
      ...maya,
      window: {
        open: true,
        closesAt: new Date(Date.now() + (3 * 60 + 20) * 60_000 + 30_000).toISOString(),
        reason: null,
      },
      capabilities: { ...maya.capabilities, replyMaxLength: 10 },
    };
    const { user } = await renderInbox({
      threads: [{ conversation: soon }],
      path: `/inbox?c=${maya.id}`,
    });
    expect(await screen.findByText('Replies possible for 3 h 20 min more')).toBeInTheDocument();
    expect(screen.getByText('10 characters left')).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Reply' }), 'Twelve chars');
    expect(screen.getByText('2 characters over the limit')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('offers Mark as sent, Send again and Discard for an uncertain reply', async () => {
    const uncertain = createInboxMessage({
      id: 'msg_unsure',
      conversationId: maya.id,
      direction: 'out',
      text: 'Your order shipped.',
      delivery: 'uncertain',
      error: 'Instagram timed out.',
      sender: {
        name: null,
        username: null,
        pictureUrl: null,
        teammate: { id: 'usr_ada', displayName: 'Ada Lovelace' },
      },
    });
    const { user, server } = await renderInbox({
      threads: [{ conversation: maya, messages: [uncertain] }],
      path: `/inbox?c=${maya.id}`,
      routes: { [`POST ${base}/conversations/${maya.id}/messages/msg_unsure/resolve`]: ok({}) },
    });
    expect(
      await screen.findByText(/could not tell whether this reply reached the network/),
    ).toBeInTheDocument();
    expect(screen.getByText('Instagram timed out.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send again' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Discard' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Mark as sent' }));
    await waitFor(() =>
      expect(server.requests.find((r) => r.path.endsWith('/resolve'))?.body).toEqual({
        action: 'sent',
      }),
    );
  });

  it('assigns, labels and marks done through the conversation', async () => {
    const { user, server } = await renderInbox({
      threads: [{ conversation: maya }],
      path: `/inbox?c=${maya.id}`,
    });
    await screen.findByRole('heading', { name: 'Maya Chen', level: 2 });
    const assign = screen.getByRole('combobox', { name: 'Assign to' });
    await within(assign).findByRole('option', { name: 'Bo Berg' });
    await user.selectOptions(assign, 'usr_bo');
    await waitFor(() =>
      expect(server.requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toContainEqual(
        {
          assigneeId: 'usr_bo',
        },
      ),
    );

    await user.click(screen.getByRole('button', { name: 'Labels' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'Complaint' }));
    await waitFor(() =>
      expect(server.requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toContainEqual(
        {
          labels: ['complaint'],
        },
      ),
    );

    await user.click(within(thread()).getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(server.requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toContainEqual(
        {
          status: 'done',
        },
      ),
    );
    expect(await screen.findByText('Select a conversation to start chatting')).toBeInTheDocument();
  });

  it('acts on comments: reply to one, like, delete after confirmation', async () => {
    const comment = createInboxMessage({
      id: 'msg_c1',
      conversationId: comments.id,
      kind: 'comment',
      text: 'Love it!',
      sender: { name: 'Sam Lee', username: 'sam', pictureUrl: null, teammate: null },
      canPrivateReply: true,
    });
    const { user, server } = await renderInbox({
      threads: [{ conversation: comments, messages: [comment] }],
      path: `/inbox?c=${comments.id}`,
      routes: {
        [`POST ${base}/conversations/${comments.id}/messages/msg_c1/like`]: ok({}),
        [`DELETE ${base}/conversations/${comments.id}/messages/msg_c1`]: ok({}),
        [`POST ${base}/conversations/${comments.id}/messages`]: ok({
          message: createInboxMessage({
            conversationId: comments.id,
            direction: 'out',
            kind: 'comment',
            delivery: 'sent',
          }),
        }),
      },
    });
    const article = await screen.findByRole('article', { name: 'Message from Sam Lee' });
    expect(within(article).getByRole('button', { name: 'Private reply' })).toBeInTheDocument();
    expect(within(article).getByRole('button', { name: 'Hide' })).toBeInTheDocument();

    await user.click(within(article).getByRole('button', { name: 'Like' }));
    await waitFor(() =>
      expect(server.requests.find((r) => r.path.endsWith('/like'))?.body).toEqual({ liked: true }),
    );

    await user.click(within(article).getByRole('button', { name: 'Reply to this comment' }));
    expect(screen.getByText("Replying to Sam Lee's comment")).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Reply' }), 'Thanks Sam!{Enter}');
    await waitFor(() =>
      expect(
        server.requests.find((r) => r.method === 'POST' && r.path.endsWith('/messages'))?.body,
      ).toMatchObject({ text: 'Thanks Sam!', replyTo: 'msg_c1' }),
    );

    await user.click(within(article).getByRole('button', { name: 'Delete on Facebook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this comment?' });
    expect(server.count(`DELETE ${base}/conversations/${comments.id}/messages/msg_c1`)).toBe(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete comment' }));
    await waitFor(() =>
      expect(server.count(`DELETE ${base}/conversations/${comments.id}/messages/msg_c1`)).toBe(1),
    );
  });

  it('offers Delete on the own reply only, where the network deletes nothing else', async () => {
    const reviews = createConversation({
      ...comments,
      id: 'conv_review',
      platform: 'Google Business Profile',
      title: 'Review by Sam Lee',
      capabilities: { ...comments.capabilities, deleteOwnRepliesOnly: true },
    });
    const review = createInboxMessage({
      id: 'msg_r1',
      conversationId: reviews.id,
      kind: 'comment',
      text: '★★★★★ Friendly staff',
      sender: { name: 'Sam Lee', username: null, pictureUrl: null, teammate: null },
    });
    const answer = createInboxMessage({
      id: 'msg_r2',
      conversationId: reviews.id,
      kind: 'comment',
      direction: 'out',
      delivery: 'sent',
      text: 'Thank you, Sam!',
    });
    const { user, server } = await renderInbox({
      threads: [{ conversation: reviews, messages: [review, answer] }],
      path: `/inbox?c=${reviews.id}`,
      routes: { [`DELETE ${base}/conversations/${reviews.id}/messages/msg_r2`]: ok({}) },
    });
    const theirs = await screen.findByRole('article', { name: 'Message from Sam Lee' });
    expect(
      within(theirs).queryByRole('button', { name: 'Delete on Google Business Profile' }),
    ).toBeNull();
    const ours = screen.getByRole('article', { name: /^Reply from/ });
    await user.click(
      within(ours).getByRole('button', { name: 'Delete on Google Business Profile' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete this reply?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete reply' }));
    await waitFor(() =>
      expect(server.count(`DELETE ${base}/conversations/${reviews.id}/messages/msg_r2`)).toBe(1),
    );
  });

  it('links a private reply in a DM to the comment it answered', async () => {
    const echo = createInboxMessage({
      id: 'msg_echo',
      conversationId: maya.id,
      direction: 'out',
      text: 'Free over 50 €',
      privateReply: true,
      privateReplyLink: {
        conversationId: comments.id,
        messageId: 'msg_c1',
        commentText: 'How much is shipping?',
      },
    });
    const { user } = await renderInbox({
      threads: [
        { conversation: maya, messages: [echo] },
        { conversation: comments, messages: [] },
      ],
      path: `/inbox?c=${maya.id}`,
    });
    const link = await screen.findByRole('link', { name: '“How much is shipping?”' });
    expect(link.closest('p')).toHaveTextContent('In answer to the comment');
    await user.click(link);
    expect(await screen.findByRole('heading', { name: comments.title })).toBeInTheDocument();
  });

  it('offers View profile, Mark as unread and Delete conversation; Block only where the network allows', async () => {
    const { user, server } = await renderInbox({
      threads: [{ conversation: maya }],
      path: `/inbox?c=${maya.id}`,
      routes: { [`DELETE ${base}/conversations/${maya.id}`]: ok({}) },
    });
    await user.click(await screen.findByRole('button', { name: 'Conversation actions' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: 'View profile' })).toHaveAttribute(
      'href',
      'https://instagram.com/maya.c',
    );
    expect(within(menu).getByRole('menuitem', { name: 'View profile' })).toHaveAttribute(
      'target',
      '_blank',
    );
    expect(within(menu).queryByRole('menuitem', { name: 'Block' })).toBeNull();
    await user.click(within(menu).getByRole('menuitem', { name: 'Delete conversation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this conversation?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete conversation' }));
    await waitFor(() => expect(server.count(`DELETE ${base}/conversations/${maya.id}`)).toBe(1));
  });

  it('has no View profile where the network has no profile page, and Block where it allows', async () => {
    const hidden = {
      ...maya,
      participant: { ...maya.participant, profileUrl: null },
      capabilities: { ...maya.capabilities, block: true },
    };
    const { user, server } = await renderInbox({
      threads: [{ conversation: hidden }],
      path: `/inbox?c=${maya.id}`,
      routes: { [`POST ${base}/conversations/${maya.id}/block`]: ok({}) },
    });
    await user.click(await screen.findByRole('button', { name: 'Conversation actions' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: 'View profile' })).toBeNull();
    await user.click(within(menu).getByRole('menuitem', { name: 'Block' }));
    const dialog = await screen.findByRole('dialog', { name: 'Block Maya Chen?' });
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    await waitFor(() =>
      expect(server.count(`POST ${base}/conversations/${maya.id}/block`)).toBe(1),
    );
  });

  it('inserts a saved reply, and creates and deletes saved replies', async () => {
    const { user, server } = await renderInbox({
      threads: [{ conversation: maya }],
      path: `/inbox?c=${maya.id}`,
      routes: {
        [`POST ${base}/saved-replies`]: ok({}),
        [`DELETE ${base}/saved-replies/sr_1`]: ok({}),
      },
    });
    const box = await screen.findByRole('textbox', { name: 'Reply' });
    await user.click(screen.getByRole('button', { name: 'Saved replies' }));
    await user.click(await screen.findByRole('menuitem', { name: /Thanks/ }));
    expect(box).toHaveValue('Thank you for writing to us!');

    await user.click(screen.getByRole('button', { name: 'Saved replies' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Manage saved replies' }));
    const dialog = await screen.findByRole('dialog', { name: 'Saved replies' });
    await user.click(within(dialog).getByRole('button', { name: 'Save reply' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Give the saved reply a name.');
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Hours');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reply text' }), 'We answer 9–17.');
    await user.click(within(dialog).getByRole('button', { name: 'Save reply' }));
    await waitFor(() =>
      expect(
        server.requests.find((r) => r.method === 'POST' && r.path.endsWith('/saved-replies'))?.body,
      ).toEqual({
        title: 'Hours',
        text: 'We answer 9–17.',
      }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete the saved reply Thanks' }));
    await waitFor(() => expect(server.count(`DELETE ${base}/saved-replies/sr_1`)).toBe(1));
  });

  it('loads the next page of saved replies in the menu and searches them in the dialog', async () => {
    const { user, server } = await renderInbox({
      threads: [{ conversation: maya }],
      path: `/inbox?c=${maya.id}`,
      routes: {
        [`GET ${base}/saved-replies`]: (request) =>
          request.query.get('q')
            ? savedRepliesPage([{ id: 'sr_9', title: 'Refund', text: 'Money back.' }])
            : request.query.get('cursor') === 'page-2'
              ? savedRepliesPage([{ id: 'sr_2', title: 'Hours', text: 'We answer 9–17.' }])
              : savedRepliesPage(
                  [{ id: 'sr_1', title: 'Thanks', text: 'Thank you for writing to us!' }],
                  'page-2',
                ),
      },
    });
    const box = await screen.findByRole('textbox', { name: 'Reply' });
    await user.click(screen.getByRole('button', { name: 'Saved replies' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Show more' }));
    await user.click(await screen.findByRole('menuitem', { name: /Hours/ }));
    expect(box).toHaveValue('We answer 9–17.');

    await user.click(screen.getByRole('button', { name: 'Saved replies' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Manage saved replies' }));
    const dialog = await screen.findByRole('dialog', { name: 'Saved replies' });
    await user.type(within(dialog).getByRole('searchbox', { name: 'Search saved replies' }), 'mon');
    expect(await within(dialog).findByText('Money back.')).toBeInTheDocument();
    expect(
      server.requests.some((r) => r.path.endsWith('/saved-replies') && r.query.get('q') === 'mon'),
    ).toBe(true);
  });

  it('shows "X is replying…" from the live stream, and refetches the thread on an inbox event', async () => {
    const { server } = await renderInbox({
      threads: [{ conversation: maya }],
      path: `/inbox?c=${maya.id}`,
    });
    await screen.findByRole('heading', { name: 'Maya Chen', level: 2 });
    const stream = FakeEventSource.latest();
    stream.open();
    stream.emit('inbox-typing', {
      organizationId: ORG,
      conversationId: maya.id,
      user: { id: 'usr_bo', displayName: 'Bo Berg' },
      typing: true,
    });
    expect(await screen.findByText('Bo Berg is replying…')).toBeInTheDocument();
    // Another organization's event changes nothing.
    stream.emit('inbox-typing', {
      organizationId: 'org_other',
      conversationId: maya.id,
      user: { id: 'usr_x', displayName: 'Xavier' },
      typing: true,
    });
    expect(screen.queryByText(/Xavier/)).toBeNull();
    stream.emit('inbox-typing', {
      organizationId: ORG,
      conversationId: maya.id,
      user: { id: 'usr_bo', displayName: 'Bo Berg' },
      typing: false,
    });
    await waitFor(() => expect(screen.queryByText('Bo Berg is replying…')).toBeNull());

    const before = server.count(`GET ${base}/conversations/${maya.id}`);
    stream.emit('inbox', { organizationId: ORG, conversationId: maya.id, change: 'message' });
    await waitFor(() =>
      expect(server.count(`GET ${base}/conversations/${maya.id}`)).toBeGreaterThan(before),
    );
  });

  it('announces a message that arrives live, and loads older messages on request', async () => {
    const first = createInboxMessage({
      id: 'msg_first',
      conversationId: maya.id,
      text: 'Hello?',
      createdAt: '2026-03-10T09:00:00.000Z',
    });
    const oldest = createInboxMessage({
      id: 'msg_oldest',
      conversationId: maya.id,
      text: 'Our very first chat',
      createdAt: '2026-02-01T09:00:00.000Z',
    });
    const live = createInboxMessage({
      id: 'msg_live',
      conversationId: maya.id,
      text: 'Anyone there?',
      createdAt: '2026-03-10T09:30:00.000Z',
    });
    const messages = [first];
    const { user } = await renderInbox({
      path: `/inbox?c=${maya.id}`,
      routes: {
        [`GET ${base}/conversations/${maya.id}`]: (request) =>
          request.query.get('before') === 'cur_1'
            ? ok({ conversation: maya, messages: [oldest], notes: [], olderCursor: null })
            : ok({ conversation: maya, messages, notes: [], olderCursor: 'cur_1' }),
      },
    });
    await screen.findByText('Hello?');
    await user.click(screen.getByRole('button', { name: 'Load older messages' }));
    expect(await screen.findByText('Our very first chat')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load older messages' })).toBeNull();

    messages.push(live);
    const stream = FakeEventSource.latest();
    stream.open();
    stream.emit('inbox', { organizationId: ORG, conversationId: maya.id, change: 'message' });
    expect(await screen.findByText('Anyone there?')).toBeInTheDocument();
    expect(screen.getByText('New message from Maya Chen: Anyone there?')).toBeInTheDocument();
    const texts = within(screen.getByRole('list', { name: 'Messages' }))
      .getAllByRole('article')
      .map((a) => a.textContent);
    expect(texts[0]).toContain('Our very first chat');
    expect(texts[2]).toContain('Anyone there?');
  });

  it('tells teammates while this member types (throttled)', async () => {
    const { user, server } = await renderInbox({
      threads: [{ conversation: maya }],
      path: `/inbox?c=${maya.id}`,
    });
    await user.type(await screen.findByRole('textbox', { name: 'Reply' }), 'Hello there');
    await waitFor(() =>
      expect(server.count(`POST ${base}/conversations/${maya.id}/typing`)).toBe(1),
    );
    expect(server.requests.find((r) => r.path.endsWith('/typing'))?.body).toEqual({ typing: true });
  });
});

describe('/inbox permissions and counts', () => {
  it('hides the reply box and every action from a member without dm:send', async () => {
    const comment = createInboxMessage({
      conversationId: comments.id,
      kind: 'comment',
      sender: { name: 'Sam Lee', username: 'sam', pictureUrl: null, teammate: null },
      canPrivateReply: true,
    });
    const { user } = await renderInbox({
      me: createMe({ permissions: ['dm:view'] }),
      threads: [{ conversation: comments, messages: [comment] }],
      path: `/inbox?c=${comments.id}`,
    });
    const article = await screen.findByRole('article', { name: 'Message from Sam Lee' });
    expect(within(article).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Reply' })).toBeNull();
    expect(within(thread()).queryByRole('button', { name: 'Done' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Assign to' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Conversation actions' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitem', { name: 'Delete conversation' })).toBeNull();
    expect(within(menu).queryByRole('menuitem', { name: 'Mark as unread' })).toBeNull();
  });

  it('manages labels from the label filter: add with a colour, rename, recolour, delete; not for viewers', async () => {
    const { user, server } = await renderInbox({
      summary: summaryReply({ ownLabels: [{ name: 'wholesale', color: 'teal' }] }),
      routes: {
        [`POST ${base}/labels`]: ok({ labels: [], ownLabels: [] }),
        [`PATCH ${base}/labels/wholesale`]: ok({ labels: [], ownLabels: [] }),
        [`DELETE ${base}/labels/wholesale`]: ok({ labels: [], ownLabels: [] }),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Labels filter' }));
    await user.click(screen.getByRole('button', { name: 'Manage labels' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage labels' });
    expect(within(dialog).getByText('Question')).toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Colour of Wholesale' })).toHaveValue(
      'teal',
    );

    await user.type(within(dialog).getByRole('textbox', { name: 'New label' }), 'VIP');
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Colour of the new label' }),
      'pink',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Add label' }));
    await waitFor(() =>
      expect(
        server.requests.find((r) => r.method === 'POST' && r.path.endsWith('/labels'))?.body,
      ).toEqual({
        name: 'VIP',
        color: 'pink',
      }),
    );

    const name = within(dialog).getByRole('textbox', { name: 'Name of Wholesale' });
    await user.clear(name);
    await user.type(name, 'B2B');
    await user.click(within(dialog).getByRole('button', { name: 'Rename' }));
    await user.selectOptions(
      within(dialog).getByRole('combobox', { name: 'Colour of Wholesale' }),
      'red',
    );
    await waitFor(() =>
      expect(server.requests.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([
        { name: 'B2B' },
        { color: 'red' },
      ]),
    );

    await user.click(within(dialog).getByRole('button', { name: 'Delete Wholesale' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the label “Wholesale”?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete label' }));
    await waitFor(() => expect(server.count(`DELETE ${base}/labels/wholesale`)).toBe(1));
  });

  it('offers no label manager to a member without dm:send', async () => {
    const { user } = await renderInbox({ me: createMe({ permissions: ['dm:view'] }) });
    await user.click(await screen.findByRole('button', { name: 'Labels filter' }));
    expect(screen.getByRole('group', { name: 'Labels' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Manage labels' })).toBeNull();
  });

  it('shows the unread count on the sidebar badge, none at zero', async () => {
    await renderInbox({ summary: summaryReply({ unreadCount: 4 }) });
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(
      await within(nav).findByRole('link', { name: 'Inbox 4 unread conversations' }),
    ).toBeInTheDocument();
  });

  it('neither asks for nor shows the inbox to a member without dm:view', async () => {
    const { server } = await renderInbox({ me: createMe({ permissions: ['post:create'] }) });
    expect(screen.getByText(/Your role does not include reading the inbox/)).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    // The link would only lead here: the navigation leaves it out.
    expect(within(nav).queryByRole('link', { name: /Inbox/ })).toBeNull();
    expect(server.count(`GET ${base}/summary`)).toBe(0);
    expect(server.count(`GET ${base}/conversations`)).toBe(0);
  });
});
