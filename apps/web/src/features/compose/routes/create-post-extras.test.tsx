import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ok, type FakeRequest } from '@/testing/fake-server';
import {
  CREATE_ROUTE,
  created,
  fileOf,
  MAIN_BUTTON,
  renderComposer,
  tile,
} from './create-post.fixtures';

/** The composer's extras: alt text per image with its reminder, and link tracking. */
const fieldsOf = (requests: FakeRequest[]) => {
  const request = requests.find((r) => `${r.method} ${r.path}` === CREATE_ROUTE);
  if (!(request?.body instanceof FormData)) throw new Error('No multipart request was sent.');
  return Object.fromEntries(
    [...request.body.entries()].filter(([name]) => name !== 'media'),
  ) as Record<string, string>;
};

describe('/create-post alt text', () => {
  it('reminds about images without alt text, takes one per image, and sends it', async () => {
    const { user, server } = await renderComposer({ routes: { [CREATE_ROUTE]: created() } });
    await user.click(await tile('X'));
    await user.upload(screen.getByLabelText('Add shared media'), [
      fileOf('dog.jpg', 'image/jpeg'),
      fileOf('cat.jpg', 'image/jpeg'),
    ]);
    expect(
      await screen.findByText(
        '2 images have no alt text. Describe them for people who cannot see them.',
      ),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add alt text for dog.jpg' }));
    const dialog = await screen.findByRole('dialog', { name: 'Alt text' });
    const field = within(dialog).getByLabelText('Description');
    // X takes 1,000 characters: more is refused before anything is sent.
    await user.click(field);
    await user.paste('a'.repeat(1001));
    expect(within(dialog).getByText('1 characters over the limit of 1000.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save alt text' })).toBeDisabled();
    await user.clear(field);
    await user.type(field, 'A dog asleep on a sofa');
    await user.click(within(dialog).getByRole('button', { name: 'Save alt text' }));

    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent(
        '1 image has no alt text. Describe it for people who cannot see it.',
      ),
    );
    expect(
      await screen.findByRole('button', { name: 'Edit alt text for dog.jpg' }),
    ).toHaveTextContent('Alt ✓');
    // Saving the description did not send the post.
    expect(server.count(CREATE_ROUTE)).toBe(0);

    await user.type(screen.getByLabelText('Post content'), 'Our pets');
    await user.click(screen.getByRole('button', { name: MAIN_BUTTON }));
    await waitFor(() => expect(server.count(CREATE_ROUTE)).toBe(1));
    expect(JSON.parse(fieldsOf(server.requests).altTexts!)).toEqual({
      '0': 'A dog asleep on a sofa',
    });
  });
});

describe('/create-post link tracking', () => {
  it('starts from the organization’s default, previews the tracked links and sends the parameters', async () => {
    const { user, server } = await renderComposer({
      routes: {
        [CREATE_ROUTE]: created(),
        'GET /organizations/org_1/link-tracking': ok({
          settings: {
            enabledByDefault: true,
            tracking: {
              source: null,
              medium: 'social',
              campaign: 'spring',
              term: null,
              content: null,
            },
          },
        }),
      },
    });
    await user.click(await tile('X'));
    const toggle = await screen.findByRole('checkbox', { name: 'Add UTM parameters to links' });
    await waitFor(() => expect(toggle).toBeChecked());
    expect(screen.getByLabelText('Campaign (utm_campaign)')).toHaveValue('spring');

    await user.type(screen.getByLabelText('Post content'), 'Sale at https://shop.test/?a=1#top');
    expect(
      await screen.findAllByText(
        /https:\/\/shop\.test\/\?a=1&utm_source=x&utm_medium=social&utm_campaign=spring#top/,
      ),
    ).not.toHaveLength(0);

    await user.click(screen.getByRole('button', { name: MAIN_BUTTON }));
    await waitFor(() => expect(server.count(CREATE_ROUTE)).toBe(1));
    const fields = fieldsOf(server.requests);
    // The text goes as written; the server adds the parameters when it publishes.
    expect(fields.content).toBe('Sale at https://shop.test/?a=1#top');
    expect(JSON.parse(fields.linkTracking!)).toMatchObject({
      campaign: 'spring',
      medium: 'social',
    });
  });

  it('sends no tracking once it is switched off', async () => {
    const { user, server } = await renderComposer({ routes: { [CREATE_ROUTE]: created() } });
    await user.click(await tile('X'));
    const toggle = screen.getByRole('checkbox', { name: 'Add UTM parameters to links' });
    expect(toggle).not.toBeChecked();
    expect(screen.getByText('Links go out exactly as written.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Post content'), 'Plain https://shop.test');
    await user.click(screen.getByRole('button', { name: MAIN_BUTTON }));
    await waitFor(() => expect(server.count(CREATE_ROUTE)).toBe(1));
    expect(fieldsOf(server.requests).linkTracking).toBeUndefined();
  });
});
