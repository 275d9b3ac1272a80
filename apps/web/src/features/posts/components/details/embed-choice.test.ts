import { describe, expect, it } from 'vitest';
import { createPlatformPost, createPost } from '../../testing/post-fixtures';
import { chooseEmbed, instagramEmbedUrl, isEmbeddableShortcode } from './embed-choice';

const published = (name: string, externalId: string | null = 'ext_1') =>
  createPost({
    status: 'published',
    platforms: [{ id: 'plt_1', name }],
    platformPosts: [
      createPlatformPost({
        platformId: 'plt_1',
        platformName: name,
        status: 'PUBLISHED',
        externalId,
        permalink: 'https://network.example/p/1',
      }),
    ],
  });

describe('chooseEmbed', () => {
  it('picks the embed by network', () => {
    expect(chooseEmbed(published('Instagram'))?.kind).toBe('instagram');
    expect(chooseEmbed(published('Facebook'))?.kind).toBe('facebook');
    expect(chooseEmbed(published('X'))).toMatchObject({
      kind: 'x',
      src: 'https://platform.twitter.com/embed/Tweet.html?id=ext_1',
    });
    expect(chooseEmbed(published('Tiktok'))).toMatchObject({
      kind: 'tiktok',
      src: 'https://www.tiktok.com/embed/v2/ext_1',
    });
    expect(chooseEmbed(published('Threads'))).toMatchObject({
      kind: 'link',
      permalink: 'https://network.example/p/1',
    });
  });

  it('needs one platform, one platform post, a published post and an external id', () => {
    expect(chooseEmbed(published('X', null))).toBeNull();
    expect(chooseEmbed({ ...published('X'), status: 'publishing' })).toBeNull();
    const two = published('X');
    expect(
      chooseEmbed({ ...two, platforms: [...two.platforms, { id: 'plt_2', name: 'Threads' }] }),
    ).toBeNull();
    expect(
      chooseEmbed({ ...two, platformPosts: [...two.platformPosts, createPlatformPost()] }),
    ).toBeNull();
    expect(chooseEmbed({ ...two, platformPosts: [] })).toBeNull();
  });
});

describe('isEmbeddableShortcode', () => {
  it('accepts a shortcode and refuses a numeric media id or nothing', () => {
    expect(isEmbeddableShortcode('C3xYz_Ab1')).toBe(true);
    expect(isEmbeddableShortcode('12345abc')).toBe(true);
    expect(isEmbeddableShortcode('17895695668004550')).toBe(false);
    expect(isEmbeddableShortcode(' 42 ')).toBe(false);
    expect(isEmbeddableShortcode('')).toBe(false);
    expect(isEmbeddableShortcode(null)).toBe(false);
  });

  it('builds the version 14 embed address', () => {
    expect(instagramEmbedUrl('C3xYz_Ab1')).toBe(
      'https://www.instagram.com/p/C3xYz_Ab1/embed/?cr=1&v=14',
    );
  });
});
