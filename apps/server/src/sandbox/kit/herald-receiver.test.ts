import { describe, expect, it } from 'vitest';
import { heraldMediaOnly, isHeraldMedia } from './herald-receiver.js';

const API = 'http://localhost:3000/api';

describe("a sandbox's reads of Herald's media", () => {
  it('take only URLs under Herald’s media route', () => {
    expect(isHeraldMedia(`${API}/media/org/photo.jpg?exp=1&sig=x`, API)).toBe(true);
    for (const url of [
      `${API}/media/`,
      `${API}/mediafile.jpg`,
      `${API}/media/../auth/me`,
      `${API}/webhooks/meta`,
      'http://localhost:3001/api/media/photo.jpg',
      'http://user@localhost:3000/api/media/photo.jpg',
      'http://169.254.169.254/latest/meta-data/',
      'not a url',
    ])
      expect(isHeraldMedia(url, API), url).toBe(false);
  });

  it('refuse any other URL before a request, and never follow a redirect', async () => {
    const asked: Array<{ url: string; redirect: RequestInit['redirect'] }> = [];
    const fetchMedia = heraldMediaOnly(API, async (url, init) => {
      asked.push({ url: String(url), redirect: init?.redirect });
      return new Response('ok');
    });
    await expect(fetchMedia('http://127.0.0.1:8080/private.jpg')).rejects.toThrow(
      /only the media files Herald hands out/,
    );
    expect(asked).toEqual([]);
    await fetchMedia(`${API}/media/photo.jpg`);
    expect(asked).toEqual([{ url: `${API}/media/photo.jpg`, redirect: 'manual' }]);
  });
});
