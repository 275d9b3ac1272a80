import { screen, waitFor, within } from '@testing-library/react';
import type { MediaLibraryItem } from '@herald/contract';
import { describe, expect, it } from 'vitest';
import { fail, type FakeRequest } from '@/testing/fake-server';
import {
  CREATE_ROUTE,
  createButton,
  created,
  fileOf,
  renderComposer,
  tile,
} from './create-post.fixtures';

const LIBRARY_ROUTE = 'GET /organizations/org_1/media';

function libraryItem(overrides: Partial<MediaLibraryItem> = {}): MediaLibraryItem {
  return {
    id: '7d6f0c4e-1111-4a7b-9c1d-000000000001',
    kind: 'image',
    mimeType: 'image/jpeg',
    fileName: 'beach.jpg',
    size: 120_000,
    width: 800,
    height: 600,
    durationSec: null,
    altText: 'Waves on a sandy beach',
    tags: ['summer'],
    uploadedBy: { id: 'usr_1', name: 'Ada Lovelace' },
    usedInPosts: 2,
    derivedFromId: null,
    cropRatio: null,
    url: 'https://media.test/beach.jpg',
    thumbnailUrl: 'https://media.test/beach.thumb.webp',
    createdAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

const libraryPage = (items: MediaLibraryItem[], totalCount = items.length) => ({
  status: 200,
  body: {
    status: 'success',
    data: { items, storage: { usedBytes: 120_000, limitBytes: 5 * 1024 * 1024 * 1024 } },
    meta: { page: 1, pageSize: 12, totalCount },
  },
});

const createRequests = (requests: FakeRequest[]) =>
  requests.filter((r) => `${r.method} ${r.path}` === CREATE_ROUTE);
const entriesOf = (request: FakeRequest | undefined) => {
  if (!(request?.body instanceof FormData)) throw new Error('No multipart request was sent.');
  return [...request.body.entries()];
};

describe('/create-post media library picker', () => {
  it('attaches a library file by id, after an upload, with its saved alt text, without uploading it', async () => {
    const { user, server } = await renderComposer({
      routes: { [LIBRARY_ROUTE]: libraryPage([libraryItem()]), [CREATE_ROUTE]: created() },
    });
    await user.click(await tile('X'));
    await user.type(screen.getByLabelText('Post content'), 'From the library');
    await user.upload(screen.getByLabelText('Add shared media'), [fileOf('new.jpg', 'image/jpeg')]);
    await screen.findByRole('list', { name: 'Shared media' });

    await user.click(
      screen.getByRole('button', { name: 'Choose shared media from the media library' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Media library' });
    expect(within(dialog).getByText('117.19 KB of 5 GB used')).toBeInTheDocument();
    expect(within(dialog).getByText('Used in 2 posts')).toBeInTheDocument();
    const add = within(dialog).getByRole('button', { name: 'Add to shared media' });
    expect(add).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Choose beach.jpg' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add 1 file to shared media' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const names = within(screen.getByRole('list', { name: 'Shared media' }))
      .getAllByRole('listitem')
      .map((item) => item.querySelector('.truncate')?.textContent);
    expect(names).toEqual(['new.jpg', 'beach.jpg']);

    await user.click(createButton());
    await waitFor(() => expect(createRequests(server.requests)).toHaveLength(1));
    const entries = entriesOf(createRequests(server.requests)[0]);
    const fields = Object.fromEntries(entries.filter(([name]) => name !== 'media'));
    expect(JSON.parse(fields.libraryMedia as string)).toEqual({ 1: libraryItem().id });
    expect(JSON.parse(fields.altTexts as string)).toEqual({ 1: 'Waves on a sandy beach' });
    // Only the new file is uploaded.
    expect(entries.filter(([name]) => name === 'media').map(([, f]) => (f as File).name)).toEqual([
      'new.jpg',
    ]);
  });

  it('searches and filters through the list route, and says so when nothing matches', async () => {
    const { user, server } = await renderComposer({
      routes: { [LIBRARY_ROUTE]: libraryPage([libraryItem()]) },
    });
    await user.click(await tile('X'));
    await user.click(
      screen.getByRole('button', { name: 'Choose shared media from the media library' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Media library' });
    await within(dialog).findByText('beach.jpg');
    server.on(LIBRARY_ROUTE, libraryPage([]));
    await user.type(within(dialog).getByLabelText('Search'), 'dog');
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'video');
    await user.click(within(dialog).getByLabelText('Unused only'));
    expect(
      await within(dialog).findByText('No file matches. Change the search or the filters.'),
    ).toBeInTheDocument();
    const last = server.requests.filter((r) => `${r.method} ${r.path}` === LIBRARY_ROUTE).at(-1)!;
    expect(Object.fromEntries(last.query)).toMatchObject({
      q: 'dog',
      type: 'video',
      unused: 'true',
      page: '1',
    });
  });

  it('crops to a ratio on the server and chooses the crop in place of its original', async () => {
    const cropped = libraryItem({
      id: '7d6f0c4e-1111-4a7b-9c1d-000000000002',
      fileName: 'beach-1x1.jpg',
      width: 600,
      height: 600,
      derivedFromId: libraryItem().id,
      cropRatio: '1:1',
      usedInPosts: 0,
    });
    const { user, server } = await renderComposer({
      routes: {
        [LIBRARY_ROUTE]: libraryPage([libraryItem()]),
        [`POST /organizations/org_1/media/${libraryItem().id}/crop`]: {
          status: 201,
          body: { status: 'success', data: { item: cropped } },
        },
      },
    });
    await user.click(await tile('X'));
    await user.click(
      screen.getByRole('button', { name: 'Choose shared media from the media library' }),
    );
    const picker = await screen.findByRole('dialog', { name: 'Media library' });
    await user.click(await within(picker).findByRole('button', { name: 'Crop beach.jpg' }));
    const crop = await screen.findByRole('dialog', { name: 'Crop beach.jpg' });
    expect(within(crop).getByText('Result: 600×600 pixels')).toBeInTheDocument();
    await user.click(within(crop).getByLabelText(/^16:9/));
    expect(within(crop).getByText('Result: 800×450 pixels')).toBeInTheDocument();
    await user.click(within(crop).getByLabelText(/^1:1/));
    await user.click(within(crop).getByRole('button', { name: 'Crop to 1:1' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Crop beach.jpg' })).not.toBeInTheDocument(),
    );
    const cropCall = server.requests.find((r) => r.path.endsWith('/crop'))!;
    expect(cropCall.body).toEqual({ ratio: '1:1' });
    await user.click(
      within(screen.getByRole('dialog', { name: 'Media library' })).getByRole('button', {
        name: 'Add 1 file to shared media',
      }),
    );
    const names = within(await screen.findByRole('list', { name: 'Shared media' }))
      .getAllByRole('listitem')
      .map((item) => item.querySelector('.truncate')?.textContent);
    expect(names).toEqual(['beach-1x1.jpg']);
  });

  it("shows the server's sentence when deleting a file a post uses is refused", async () => {
    const unused = libraryItem({ usedInPosts: 0, fileName: 'old.jpg' });
    const { user } = await renderComposer({
      routes: {
        [LIBRARY_ROUTE]: libraryPage([unused]),
        [`DELETE /organizations/org_1/media/${unused.id}`]: fail(
          409,
          'CONFLICT',
          'old.jpg is used in 1 post. Remove it from that post (or delete it) before deleting it from the library.',
        ),
      },
    });
    await user.click(await tile('X'));
    await user.click(
      screen.getByRole('button', { name: 'Choose shared media from the media library' }),
    );
    const picker = await screen.findByRole('dialog', { name: 'Media library' });
    await user.click(await within(picker).findByRole('button', { name: 'Delete old.jpg' }));
    expect(
      await within(picker).findByText(
        'old.jpg is used in 1 post. Remove it from that post (or delete it) before deleting it from the library.',
      ),
    ).toBeInTheDocument();
  });
});
