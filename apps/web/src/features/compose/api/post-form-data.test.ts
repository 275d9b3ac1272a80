import { describe, expect, it } from 'vitest';
import { buildPostFormData } from './post-form-data';

describe('buildPostFormData', () => {
  it('puts every text field before the first file, so the server can refuse before reading media', () => {
    const form = buildPostFormData({
      platformIds: ['p-x', 'p-ig'],
      content: { default: 'Shared', 'p-ig': 'For Instagram' },
      action: 'schedule',
      scheduledAt: '2030-01-02T09:00:00.000Z',
      title: 'Winter launch',
      sharedFiles: [new File(['a'], 'a.png', { type: 'image/png' })],
      platformFiles: { 'p-ig': [new File(['b'], 'b.jpg', { type: 'image/jpeg' })] },
    });
    const names = [...form.keys()];
    const firstFile = names.indexOf('media');
    expect(names.slice(0, firstFile).sort()).toEqual(
      ['action', 'content', 'platformIds', 'platformMedia', 'scheduledAt', 'title'].sort(),
    );
    expect(names.slice(firstFile)).toEqual(['media', 'media']);
    expect(JSON.parse(form.get('platformMedia') as string)).toEqual({ 'p-ig': [1] });
  });
});
