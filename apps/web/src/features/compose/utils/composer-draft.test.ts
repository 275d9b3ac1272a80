import { ComposerDraftBodySchema } from '@herald/contract';
import { describe, expect, it } from 'vitest';
import { draftBodyOf, hasChanges, restoreDraft } from './composer-draft';
import type { ComposeState } from './compose-state';

const ACCOUNT = '0b8c5d2e-3f41-4a6b-9c7d-8e9f0a1b2c3d';

const empty: ComposeState = {
  platformIds: [ACCOUNT],
  mode: 'shared',
  sharedText: 'The butler did it',
  customTexts: {},
  sharedMedia: [],
  platformMedia: {},
  title: '',
  action: 'draft',
  scheduleAt: '',
};

describe('the autosaved draft and Mastodon settings', () => {
  it('keeps each Mastodon account’s content warning, visibility and language', () => {
    const state: ComposeState = {
      ...empty,
      mastodon: {
        [ACCOUNT]: { spoilerText: 'Mystery ending', visibility: 'unlisted', language: 'en' },
      },
    };
    const body = ComposerDraftBodySchema.parse(draftBodyOf(state));
    expect(body.mastodon).toEqual(state.mastodon);
    // A change to them alone is a change worth saving.
    expect(hasChanges(state, empty)).toBe(true);
    const restored = restoreDraft(empty, body, [ACCOUNT]);
    expect(restored.mastodon).toEqual(state.mastodon);
  });

  it('says nothing of them when none were chosen', () => {
    expect(draftBodyOf(empty)).not.toHaveProperty('mastodon');
  });
});
