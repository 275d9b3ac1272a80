import { describe, expect, it } from 'vitest';
import { platformNameOf, webNetworkOf, WEB_NETWORKS } from '.';

describe('platformNameOf', () => {
  it('reads a network whatever its case and the spaces around it', () => {
    expect(platformNameOf(' tiktok ')).toBe('TikTok');
    expect(platformNameOf('LinkedIn')).toBe('LinkedIn');
  });

  it('reads X under its old name', () => {
    expect(platformNameOf('Twitter')).toBe('X');
    expect(webNetworkOf('twitter')).toBe(WEB_NETWORKS.X);
  });

  it('knows no other network', () => {
    expect(platformNameOf('Friendica')).toBeNull();
    expect(webNetworkOf('')).toBeNull();
  });
});
