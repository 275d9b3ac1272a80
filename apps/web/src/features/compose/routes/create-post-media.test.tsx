import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  account,
  connectedAccounts,
  fileOf,
  platformsWithRules,
  renderComposer,
  tile,
} from './create-post.fixtures';

const MB = 1024 * 1024;
const fileNames = (listName: string) =>
  within(screen.getByRole('list', { name: listName }))
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.truncate')?.textContent);

describe('/create-post media rules in the browser', () => {
  it('skips a file too large and one of the wrong type with the messages of docs/product.md#media-rules, and adds the valid one', async () => {
    const { user } = await renderComposer();
    await user.click(await tile('Instagram'));

    await user.upload(screen.getByLabelText('Add shared media'), [
      fileOf('huge.jpg', 'image/jpeg', 9 * MB),
      fileOf('photo.webp', 'image/webp'),
      fileOf('ok.jpg', 'image/jpeg', 2 * MB),
    ]);

    expect(await screen.findByText('File too large. Max size is 8 MB.')).toBeInTheDocument();
    expect(screen.getByText('huge.jpg · Instagram')).toBeInTheDocument();
    expect(
      screen.getByText('File type image/webp not allowed. Use: image/jpeg'),
    ).toBeInTheDocument();
    expect(fileNames('Shared media')).toEqual(['ok.jpg']);
    // Instagram takes 10 files in one post.
    expect(screen.getByText('1 of 10 files')).toBeInTheDocument();
  });

  it('counts files against the chosen network: Facebook refuses the 11th', async () => {
    const { user } = await renderComposer();
    await user.click(await tile('Facebook'));
    const ten = Array.from({ length: 10 }, (_, i) => fileOf(`p${i + 1}.jpg`, 'image/jpeg'));
    await user.upload(screen.getByLabelText('Add shared media'), ten);
    await screen.findByText('10 of 10 files');

    await user.upload(screen.getByLabelText('Add shared media'), [fileOf('p11.jpg', 'image/jpeg')]);

    expect(
      await screen.findByText('Facebook accepts at most 10 media files in one post.'),
    ).toBeInTheDocument();
    expect(fileNames('Shared media')).toHaveLength(10);
    expect(fileNames('Shared media')).not.toContain('p11.jpg');
  });

  it('applies the default types of docs/product.md#media-rules before any platform is chosen', async () => {
    await renderComposer();
    await tile('X');
    const user = userEvent.setup({ applyAccept: false });

    await user.upload(screen.getByLabelText('Add shared media'), [
      fileOf('notes.pdf', 'application/pdf'),
      fileOf('clip.mp4', 'video/mp4'),
    ]);

    expect(await screen.findByText('Unsupported file type')).toBeInTheDocument();
    expect(fileNames('Shared media')).toEqual(['clip.mp4']);
  });

  it("keeps a network's count rules: X takes at most 4 images", async () => {
    const { user } = await renderComposer();
    await user.click(await tile('X'));
    const five = Array.from({ length: 5 }, (_, i) => fileOf(`x${i + 1}.png`, 'image/png'));

    await user.upload(screen.getByLabelText('Add media for X'), five);

    expect(await screen.findByText('X accepts at most 4 images in one post.')).toBeInTheDocument();
    expect(fileNames('Files for X')).toEqual(['x1.png', 'x2.png', 'x3.png', 'x4.png']);
  });

  it('measures images first, so a too-small image is refused at once', async () => {
    const platforms = platformsWithRules().map((p) =>
      p.name === 'Threads'
        ? {
            ...p,
            mediaConstraints: {
              image: {
                allowedMimeTypes: ['image/jpeg'],
                minDimensions: { width: 1080, height: 1080 },
              },
            },
          }
        : p,
    );
    const { user } = await renderComposer({
      platforms,
      media: { 'tiny.jpg': { width: 320, height: 320 } },
      integrations: [...connectedAccounts(), account('Threads')],
    });
    await user.click(await tile('Threads'));

    await user.upload(screen.getByLabelText('Add shared media'), [
      fileOf('tiny.jpg', 'image/jpeg'),
    ]);

    expect(
      await screen.findByText('Image too small. Min dimensions: 1080x1080px.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Shared media' })).toBeNull();
  });

  it('reads video durations first: too long, or unreadable', async () => {
    const { user } = await renderComposer({
      media: { 'long.mp4': { durationSec: 200, width: 1280, height: 720 } },
    });
    await user.click(await tile('X'));

    await user.upload(screen.getByLabelText('Add shared media'), [
      fileOf('long.mp4', 'video/mp4'),
      fileOf('broken.mp4', 'video/mp4'),
    ]);

    expect(await screen.findByText('Video too long. Max duration: 140s.')).toBeInTheDocument();
    expect(screen.getByText('Could not read metadata for file broken.mp4')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Shared media' })).toBeNull();
  });
});

describe('/create-post shared and platform-specific media', () => {
  it('turns platform-specific media off while there is shared media, and back on once removed', async () => {
    const { user } = await renderComposer();
    await user.click(await tile('X'));
    await user.click(await tile('Facebook'));

    await user.upload(screen.getByLabelText('Add shared media'), [fileOf('team.png', 'image/png')]);
    await screen.findByRole('list', { name: 'Shared media' });
    expect(
      screen.getByText('Remove the shared media to give each platform its own files.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Add media for X')).toBeDisabled();
    expect(screen.getByLabelText('Add media for Facebook')).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Remove team.png' }));
    expect(screen.getByLabelText('Add media for X')).toBeEnabled();

    await user.upload(screen.getByLabelText('Add media for X'), [fileOf('x.png', 'image/png')]);
    await screen.findByRole('list', { name: 'Files for X' });
    expect(screen.queryByLabelText('Add shared media')).toBeNull();
    expect(
      screen.getByText(
        'Remove the platform-specific media below to share files with every platform.',
      ),
    ).toBeInTheDocument();
    // The preview shows each network what it gets.
    const x = screen.getByRole('article', { name: 'X preview' });
    await waitFor(() =>
      expect(within(x).getByTestId('media-grid')).toHaveAttribute('data-count', '1'),
    );
    const facebook = screen.getByRole('article', { name: 'Facebook preview' });
    expect(within(facebook).queryByTestId('media-grid')).toBeNull();
  });

  it("opens a platform's requirements from View requirements", async () => {
    const { user } = await renderComposer();
    await user.click(await tile('Instagram'));

    await user.click(screen.getByRole('button', { name: 'View requirements for Instagram' }));

    const dialog = await screen.findByRole('dialog', { name: 'Instagram requirements' });
    expect(within(dialog).getByText('Types: image/jpeg')).toBeInTheDocument();
    expect(within(dialog).getByText('Max size: 8 MB')).toBeInTheDocument();
    expect(within(dialog).getByText('Duration: 3s to 900s')).toBeInTheDocument();
    expect(
      within(dialog).getByText(/Every post needs at least one image or video\./),
    ).toBeInTheDocument();
  });
});
