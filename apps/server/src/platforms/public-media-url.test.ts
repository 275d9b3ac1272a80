import { describe, expect, it } from 'vitest';
import { mediaUrlWarning, unreachableMediaBase } from './public-media-url.js';

const instagram = { name: 'Instagram', slug: 'instagram', sandbox: false };
const x = { name: 'X', slug: 'x', sandbox: false };

describe('the start-up warning about media URLs networks cannot fetch', () => {
  it('warns when a configured network pulls media by URL and the URLs are not public https', () => {
    expect(mediaUrlWarning('http://localhost:3000/api', [instagram, x])).toBe(
      "Instagram fetches post media from Herald's media URLs under http://localhost:3000/api, but localhost is not reachable from the internet: posts with images or videos will fail there. Set API_PUBLIC_URL to the public https address of this server's API.",
    );
    expect(mediaUrlWarning('http://herald.example.com/api', [instagram])).toMatch(
      /but it is not https/,
    );
    const threads = { name: 'Threads', slug: 'threads', sandbox: false };
    expect(mediaUrlWarning('https://192.168.1.20/api', [instagram, threads])).toMatch(
      /^Instagram, Threads fetch post media .* 192\.168\.1\.20 is not reachable/,
    );
  });

  it('says nothing for public https, sandboxes, or networks that receive the bytes', () => {
    expect(mediaUrlWarning('https://herald.example.com/api', [instagram])).toBeNull();
    expect(
      mediaUrlWarning('http://localhost:3000/api', [{ ...instagram, sandbox: true }]),
    ).toBeNull();
    expect(mediaUrlWarning('http://localhost:3000/api', [x])).toBeNull();
  });

  it('recognises addresses the internet cannot reach', () => {
    for (const base of [
      'https://127.0.0.1/api',
      'https://10.0.0.5/api',
      'https://172.20.1.1/api',
      'https://[::1]/api',
      'https://herald.local/api',
      'https://herald/api',
    ])
      expect(unreachableMediaBase(base)).toMatch(/not reachable from the internet/);
    expect(unreachableMediaBase('https://172.32.0.1/api')).toBeNull();
  });
});
