import { describe, expect, it } from 'vitest';
import { createIntegration } from '@/testing/platform-fixtures';
import { recentActivity } from './activity';

const post = (id: string, createdAt: string, status = 'draft', content: string | null = null) => ({
  id,
  content,
  status,
  createdAt,
  scheduledAt: null,
  publishedAt: null,
});

describe('recentActivity (docs/product.md#constants)', () => {
  it('takes the 2 newest posts and the 2 newest integrations, newest first', () => {
    const items = recentActivity(
      [
        post('p1', '2026-03-01T10:00:00Z'),
        post('p3', '2026-03-05T10:00:00Z', 'published', 'Spring launch is here'),
        post('p2', '2026-03-03T10:00:00Z', 'SCHEDULED'),
      ],
      [
        createIntegration({ id: 'i1', connectedAt: '2026-03-02T10:00:00Z' }),
        createIntegration({
          id: 'i3',
          connectedAt: '2026-03-06T10:00:00Z',
          platform: { id: 'plt_instagram', name: 'Instagram' },
          metadata: { username: 'acme.studio' },
        }),
        createIntegration({ id: 'i2', connectedAt: '2026-03-04T10:00:00Z' }),
      ],
    );

    expect(items.map((i) => i.id)).toEqual([
      'integration-i3',
      'post-p3',
      'integration-i2',
      'post-p2',
    ]);
    expect(items[0]?.text).toBe('Connected Instagram account @acme.studio');
    expect(items[1]?.text).toBe('Published a post: "Spring launch is here"');
    expect(items[3]?.text).toBe('Scheduled a post');
  });

  it('names an account without a username by its name, and shortens long posts', () => {
    const long = 'x'.repeat(100);
    const [first, second] = recentActivity(
      [post('p1', '2026-03-01T10:00:00Z', 'draft', long)],
      [
        createIntegration({
          connectedAt: '2026-03-02T10:00:00Z',
          platform: { id: 'plt_facebook', name: 'Facebook' },
          metadata: { username: null, name: 'Acme Page' },
        }),
      ],
    );
    expect(first?.text).toBe('Connected Facebook account Acme Page');
    expect(second?.text).toBe(`Drafted a post: "${'x'.repeat(57)}…"`);
  });

  it('is empty without posts and integrations', () => {
    expect(recentActivity([], [])).toEqual([]);
  });
});
