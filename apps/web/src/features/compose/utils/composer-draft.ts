import type { ComposerDraftBody } from '@herald/contract';
import type { ComposeState } from './compose-state';
import type { MediaItem } from './media-files';

const storedIds = (items: readonly MediaItem[]) =>
  items.flatMap((item) => (item.storedId ? [item.storedId] : []));

/**
 * What the server keeps of the form (docs/product.md#composer-autosave): everything typed and
 * chosen, and the stored files still in it. Files chosen in this browser are not uploaded until
 * the post is sent, so a draft cannot bring them back.
 */
export function draftBodyOf(state: ComposeState): ComposerDraftBody {
  const platform = Object.fromEntries(
    Object.entries(state.platformMedia).map(([id, items]) => [id, storedIds(items)]),
  );
  const hasStored =
    storedIds(state.sharedMedia).length > 0 || Object.values(platform).some((ids) => ids.length);
  return {
    platformIds: state.platformIds,
    mode: state.mode,
    sharedText: state.sharedText,
    customTexts: state.customTexts,
    title: state.title,
    action: state.action,
    scheduleAt: state.scheduleAt,
    ...(state.linkTracking !== undefined ? { linkTracking: state.linkTracking } : {}),
    ...(state.mastodon && Object.keys(state.mastodon).length > 0
      ? { mastodon: state.mastodon }
      : {}),
    ...(state.googleBusiness && Object.keys(state.googleBusiness).length > 0
      ? { googleBusiness: state.googleBusiness }
      : {}),
    ...(hasStored ? { keptMedia: { shared: storedIds(state.sharedMedia), platform } } : {}),
  };
}

/** The form's content as one comparable value: its draft body and the files it holds. */
function fingerprint(state: ComposeState): string {
  const files = [...state.sharedMedia, ...Object.values(state.platformMedia).flat()].map(
    (item) => `${item.id}:${item.altText ?? ''}`,
  );
  return JSON.stringify([draftBodyOf(state), files]);
}

/** Whether the member changed anything since the form started (or was last restored). */
export function hasChanges(state: ComposeState, baseline: ComposeState): boolean {
  return fingerprint(state) !== fingerprint(baseline);
}

/**
 * The form with a saved draft put back: its texts, accounts, action and time. Only accounts that
 * are still connected and not locked come back; when editing, the post's stored files the draft
 * had removed stay removed.
 */
export function restoreDraft(
  state: ComposeState,
  body: ComposerDraftBody,
  availableIds: readonly string[],
  lockedIds: readonly string[] = [],
): ComposeState {
  const usable = body.platformIds.filter(
    (id) => availableIds.includes(id) && !lockedIds.includes(id),
  );
  const locked = state.platformIds.filter((id) => lockedIds.includes(id));
  const kept = body.keptMedia;
  const keep = (items: MediaItem[], ids: readonly string[] | undefined) =>
    items.filter((item) => !item.storedId || (ids ?? []).includes(item.storedId));
  return {
    ...state,
    platformIds: [...usable, ...locked],
    mode: body.mode,
    sharedText: body.sharedText,
    customTexts: body.customTexts,
    title: body.title,
    action: body.action,
    scheduleAt: body.scheduleAt,
    ...(body.linkTracking !== undefined ? { linkTracking: body.linkTracking } : {}),
    ...(body.mastodon ? { mastodon: body.mastodon } : {}),
    ...(body.googleBusiness ? { googleBusiness: body.googleBusiness } : {}),
    sharedMedia: keep(state.sharedMedia, kept?.shared),
    platformMedia: Object.fromEntries(
      Object.entries(state.platformMedia).map(([id, items]) => [
        id,
        keep(items, kept?.platform[id]),
      ]),
    ),
  };
}
