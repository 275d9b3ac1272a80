import type { Post } from '@herald/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fail, ok } from '@/testing/fake-server';
import { createPlatformPost, createPost } from '../testing/post-fixtures';
import { connectedTo, postPath, renderDetails } from '../testing/render-details';

/** A post published on one network, with its id there. */
function publishedOn(name: string, overrides: Partial<Post> = {}): Post {
  const platformId = `plt_${name.toLowerCase()}`;
  return createPost({
    status: 'published',
    platforms: [{ id: platformId, name }],
    platformPosts: [
      createPlatformPost({
        platformId,
        platformName: name,
        status: 'PUBLISHED',
        externalId: '7351',
        permalink: `https://${name.toLowerCase()}.example/p/7351`,
      }),
    ],
    ...overrides,
  });
}

const embedAnswer = (shortcode: string | null, permalink: string | null = null) =>
  ok({
    data: { platformName: 'Instagram', externalId: '1789', shortcode, permalink, username: null },
  });

const preview = (name: string) => screen.findByRole('region', { name: `Preview on ${name}` });

describe('/content/{postId} embedded preview', () => {
  it('embeds X by the post id, in a titled, sandboxed frame', async () => {
    await renderDetails(publishedOn('X'));
    const x = within(await preview('X')).getByTitle('X post preview');
    expect(x.tagName).toBe('IFRAME');
    expect(x).toHaveAttribute('src', 'https://platform.twitter.com/embed/Tweet.html?id=7351');
    expect(x.getAttribute('sandbox')).toContain('allow-scripts');
    expect(x.getAttribute('sandbox')).not.toContain('allow-top-navigation');
  });

  it('embeds TikTok by the post id', async () => {
    await renderDetails(publishedOn('TikTok'), { integrations: connectedTo('TikTok') });
    expect(within(await preview('TikTok')).getByTitle('TikTok post preview')).toHaveAttribute(
      'src',
      'https://www.tiktok.com/embed/v2/7351',
    );
  });

  it('embeds Instagram by the shortcode the server knows (embed version 14)', async () => {
    const post = publishedOn('Instagram');
    await renderDetails(post, {
      integrations: connectedTo('Instagram'),
      routes: { [`GET ${postPath(post)}/media/plt_instagram`]: embedAnswer('C3xYz_Ab1') },
    });
    const frame = await within(await preview('Instagram')).findByTitle('Instagram post preview');
    expect(frame.getAttribute('src')).toMatch(
      /^https:\/\/www\.instagram\.com\/p\/C3xYz_Ab1\/embed/,
    );
    expect(frame.getAttribute('src')).toContain('v=14');
    expect(frame).toHaveAttribute('data-instgrm-version', '14');
  });

  it('does not embed Instagram by a numeric shortcode: it links to the post instead', async () => {
    const post = publishedOn('Instagram');
    await renderDetails(post, {
      integrations: connectedTo('Instagram'),
      routes: {
        [`GET ${postPath(post)}/media/plt_instagram`]: embedAnswer(
          '17895695668004550',
          'https://www.instagram.com/p/C3xYz_Ab1/',
        ),
      },
    });
    const region = await preview('Instagram');
    expect(
      await within(region).findByRole('link', { name: /View the post on Instagram/ }),
    ).toHaveAttribute('href', 'https://www.instagram.com/p/C3xYz_Ab1/');
    expect(within(region).queryByTitle('Instagram post preview')).not.toBeInTheDocument();
  });

  it("says 'Failed to load Instagram post details.' when the details cannot be read", async () => {
    const post = publishedOn('Instagram');
    await renderDetails(post, {
      integrations: connectedTo('Instagram'),
      routes: { [`GET ${postPath(post)}/media/plt_instagram`]: ok({ unexpected: true }) },
    });
    expect(await within(await preview('Instagram')).findByRole('alert')).toHaveTextContent(
      'Failed to load Instagram post details.',
    );
  });

  it('embeds Facebook by the permalink from its own route', async () => {
    const post = publishedOn('Facebook');
    const { server } = await renderDetails(post, {
      integrations: connectedTo('Facebook'),
      routes: {
        [`GET ${postPath(post)}/media/plt_facebook/facebook`]: ok({
          permalink: 'https://www.facebook.com/acme/posts/42',
        }),
      },
    });
    const frame = await within(await preview('Facebook')).findByTitle('Facebook post preview');
    const src = new URL(frame.getAttribute('src') ?? '');
    expect(src.origin + src.pathname).toBe('https://www.facebook.com/plugins/post.php');
    expect(src.searchParams.get('href')).toBe('https://www.facebook.com/acme/posts/42');
    expect(server.count(`GET ${postPath(post)}/media/plt_facebook`)).toBe(0);
  });

  it("says 'Failed to load Facebook post permalink.' (or the server's reason)", async () => {
    const post = publishedOn('Facebook');
    await renderDetails(post, {
      integrations: connectedTo('Facebook'),
      routes: { [`GET ${postPath(post)}/media/plt_facebook/facebook`]: ok({}) },
    });
    expect(await within(await preview('Facebook')).findByRole('alert')).toHaveTextContent(
      'Failed to load Facebook post permalink.',
    );
  });

  it("says the server's reason when Facebook has no permalink", async () => {
    const post = publishedOn('Facebook');
    await renderDetails(post, {
      integrations: connectedTo('Facebook'),
      routes: {
        [`GET ${postPath(post)}/media/plt_facebook/facebook`]: fail(
          404,
          'NOT_FOUND',
          'No permalink is known for this post on Facebook.',
        ),
      },
    });
    expect(await within(await preview('Facebook')).findByRole('alert')).toHaveTextContent(
      'No permalink is known for this post on Facebook.',
    );
  });

  it('links to the post on networks without an embed', async () => {
    await renderDetails(publishedOn('Threads'), { integrations: connectedTo('Threads') });
    expect(
      within(await preview('Threads')).getByRole('link', { name: /View the post on Threads/ }),
    ).toHaveAttribute('href', 'https://threads.example/p/7351');
  });

  it('shows no preview unless one network, one publication, published, with an id', async () => {
    const cases: Post[] = [
      publishedOn('X', { status: 'publishing' }),
      publishedOn('X', {
        platforms: [
          { id: 'plt_x', name: 'X' },
          { id: 'plt_threads', name: 'Threads' },
        ],
      }),
      publishedOn('X', { platformPosts: [createPlatformPost({ status: 'PUBLISHED' })] }),
    ];
    for (const post of cases) {
      const { unmount } = await renderDetails(post);
      expect(screen.getByRole('region', { name: 'Publish to Platform' })).toBeInTheDocument();
      expect(screen.queryByRole('region', { name: /^Preview on/ })).not.toBeInTheDocument();
      expect(document.querySelector('iframe')).toBeNull();
      unmount();
    }
  });
});
