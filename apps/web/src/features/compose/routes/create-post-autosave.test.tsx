import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ComposerDraftBody } from '@herald/contract';
import { ok, type FakeRequest } from '@/testing/fake-server';
import {
  account,
  CREATE_ROUTE,
  created,
  createButton,
  renderComposer,
  tile,
} from './create-post.fixtures';

const DRAFT_ROUTE = '/organizations/org_1/composer-draft';
const sharedText = () => screen.getByLabelText('Post content');
const saves = (requests: FakeRequest[]) =>
  requests.filter((r) => r.method === 'PUT' && r.path === DRAFT_ROUTE);
const discards = (requests: FakeRequest[]) =>
  requests.filter((r) => r.method === 'DELETE' && r.path === DRAFT_ROUTE);

const keptBody = (sharedText: string, platformIds: string[]): ComposerDraftBody => ({
  platformIds,
  mode: 'shared',
  sharedText,
  customTexts: {},
  title: 'Launch',
  action: 'draft',
  scheduleAt: '',
  linkTracking: null,
});

const x = account('X', { name: 'Acme', username: 'acme' });
const integrations = [x, account('Facebook', { name: 'Acme Page', username: null })];

function draftRoutes(kept: ComposerDraftBody | null) {
  return {
    [`GET ${DRAFT_ROUTE}`]: ok({
      draft: kept && { postId: null, body: kept, updatedAt: new Date().toISOString() },
    }),
    [`PUT ${DRAFT_ROUTE}`]: (request: FakeRequest) =>
      ok({
        draft: {
          ...(request.body as { postId: null; body: ComposerDraftBody }),
          updatedAt: new Date().toISOString(),
        },
      }),
    [`DELETE ${DRAFT_ROUTE}`]: ok(null),
  };
}

describe('/create-post autosave', () => {
  it('saves the draft to the server once typing pauses, and says so', async () => {
    const { user, server } = await renderComposer({ integrations, routes: draftRoutes(null) });
    await user.click(await tile('X'));
    await user.type(sharedText(), 'Half a thought');

    await waitFor(() => expect(saves(server.requests)).toHaveLength(1), { timeout: 4000 });
    // One save for the whole burst of typing, with the form as it is.
    expect(saves(server.requests)[0]?.body).toMatchObject({
      postId: null,
      body: { platformIds: [x.id], sharedText: 'Half a thought', action: 'draft' },
    });
    expect(await screen.findByText(/Draft saved\./)).toBeInTheDocument();
  });

  it('restores the kept draft on return and can discard it', async () => {
    const { user, server } = await renderComposer({
      integrations,
      routes: draftRoutes(keptBody('Written on my phone', [x.id])),
    });
    await waitFor(() => expect(sharedText()).toHaveValue('Written on my phone'));
    expect(await tile('X')).toBeChecked();
    expect(screen.getByText(/Restored your unsent draft/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Discard draft' }));
    expect(sharedText()).toHaveValue('');
    expect(await tile('X')).not.toBeChecked();
    expect(discards(server.requests)).toHaveLength(1);
    expect(screen.queryByText(/Restored your unsent draft/)).not.toBeInTheDocument();
  });

  it('leaves out accounts that are no longer connected', async () => {
    await renderComposer({
      integrations,
      routes: draftRoutes(keptBody('Hello', ['aaaaaaaa-0000-4000-8000-999999999999'])),
    });
    await waitFor(() => expect(sharedText()).toHaveValue('Hello'));
    expect(await tile('X')).not.toBeChecked();
  });

  it('drops the kept draft once the post is sent', async () => {
    const { user, server } = await renderComposer({
      integrations,
      routes: { ...draftRoutes(keptBody('Ready to go', [x.id])), [CREATE_ROUTE]: created() },
    });
    await waitFor(() => expect(sharedText()).toHaveValue('Ready to go'));
    await user.click(createButton());
    await waitFor(() => expect(discards(server.requests)).toHaveLength(1));
    // Sent and gone: the page moved on without asking and saved nothing more.
    await waitFor(() => expect(screen.queryByLabelText('Post content')).not.toBeInTheDocument());
    expect(saves(server.requests)).toHaveLength(0);
  });
});
