import { describe, expect, it } from 'vitest';
import { buildPostFormData } from './post-form-data';

const X = '11111111-1111-4111-8111-111111111111';
const IG = '22222222-2222-4222-8222-222222222222';

describe('buildPostFormData', () => {
  it('puts every text field before the first file, so the server can refuse before reading media', () => {
    const form = buildPostFormData({
      integrationIds: [X, IG],
      content: { default: 'Shared', [IG]: 'For Instagram' },
      action: 'schedule',
      scheduledAt: '2030-01-02T09:00:00.000Z',
      title: 'Winter launch',
      sharedFiles: [new File(['a'], 'a.png', { type: 'image/png' })],
      platformFiles: { [IG]: [new File(['b'], 'b.jpg', { type: 'image/jpeg' })] },
    });
    const names = [...form.keys()];
    const firstFile = names.indexOf('media');
    expect(names.slice(0, firstFile).sort()).toEqual(
      ['action', 'content', 'integrationIds', 'platformMedia', 'scheduledAt', 'title'].sort(),
    );
    expect(names.slice(firstFile)).toEqual(['media', 'media']);
    expect(JSON.parse(form.get('platformMedia') as string)).toEqual({ [IG]: [1] });
  });
});
