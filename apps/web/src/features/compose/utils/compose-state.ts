import type {
  CreatePostAction,
  GbpPostSettings,
  LinkTracking,
  MastodonPostSettings,
} from '@herald/contract';
import type { MediaItem } from './media-files';

/** Shared Content (one text for every network) or Customize per Platform. */
export type ContentMode = 'shared' | 'custom';

/** Everything the member has entered; derived facts (rules, previews) are computed from it. */
export interface ComposeState {
  /** Selected Platform ids. */
  platformIds: string[];
  mode: ContentMode;
  sharedText: string;
  /** Per-platform texts; kept for networks that get unselected, sent only for selected ones. */
  customTexts: Record<string, string>;
  sharedMedia: MediaItem[];
  platformMedia: Record<string, MediaItem[]>;
  title: string;
  action: CreatePostAction;
  /** The picker's wall-clock value (`YYYY-MM-DDTHH:mm`), in the browser's zone. */
  scheduleAt: string;
  /**
   * docs/product.md#link-tracking: the post's UTM parameters; null: off; undefined: not chosen
   * yet (a new post takes the organization's default).
   */
  linkTracking?: LinkTracking | null;
  /**
   * docs/analytics.md#short-links: whether links go out as Herald's short links; undefined: not
   * chosen yet (the form takes the organization's setting).
   */
  shortLinks?: boolean;
  /** Each Mastodon account's content warning, visibility and language, by account id. */
  mastodon?: Record<string, MastodonPostSettings>;
  /** Each Google Business Profile location's post type, event, offer and button, by account id. */
  googleBusiness?: Record<string, GbpPostSettings>;
}

export type ComposeEvent =
  | { type: 'togglePlatform'; platformId: string }
  | { type: 'setMode'; mode: ContentMode }
  | { type: 'setSharedText'; text: string }
  | { type: 'setCustomText'; platformId: string; text: string }
  | { type: 'addMedia'; platformId: string | null; items: MediaItem[] }
  | { type: 'removeMedia'; platformId: string | null; id: string }
  | { type: 'setTitle'; title: string }
  | { type: 'setAction'; action: CreatePostAction }
  | { type: 'setScheduleAt'; value: string }
  | { type: 'setAltText'; itemId: string; text: string }
  | { type: 'setLinkTracking'; value: LinkTracking | null }
  | { type: 'setShortLinks'; value: boolean }
  | { type: 'setMastodon'; platformId: string; settings: MastodonPostSettings }
  | { type: 'setGoogleBusiness'; platformId: string; settings: GbpPostSettings }
  | { type: 'reset'; state: ComposeState };

/**
 * A blank post. The default never sends anything right away: with a time (from the calendar or
 * the next free slot) it schedules, without one it saves a draft; Publish now is chosen explicitly.
 */
export function initialComposeState(scheduleAt = ''): ComposeState {
  return {
    platformIds: [],
    mode: 'shared',
    sharedText: '',
    customTexts: {},
    sharedMedia: [],
    platformMedia: {},
    title: '',
    action: scheduleAt ? 'schedule' : 'draft',
    scheduleAt,
  };
}

/** Customizing starts from the shared text, so nothing typed so far is lost. */
function seedTexts(state: ComposeState, platformIds: readonly string[]) {
  const texts = { ...state.customTexts };
  for (const id of platformIds) texts[id] ??= state.sharedText;
  return texts;
}

export function composeReducer(state: ComposeState, event: ComposeEvent): ComposeState {
  switch (event.type) {
    case 'togglePlatform': {
      const isSelected = state.platformIds.includes(event.platformId);
      const platformIds = isSelected
        ? state.platformIds.filter((id) => id !== event.platformId)
        : [...state.platformIds, event.platformId];
      const customTexts =
        state.mode === 'custom' ? seedTexts(state, platformIds) : state.customTexts;
      return { ...state, platformIds, customTexts };
    }
    case 'setMode':
      return {
        ...state,
        mode: event.mode,
        customTexts:
          event.mode === 'custom' ? seedTexts(state, state.platformIds) : state.customTexts,
      };
    case 'setSharedText':
      return { ...state, sharedText: event.text };
    case 'setCustomText':
      return { ...state, customTexts: { ...state.customTexts, [event.platformId]: event.text } };
    case 'addMedia':
      if (event.platformId === null) {
        return { ...state, sharedMedia: [...state.sharedMedia, ...event.items] };
      }
      return {
        ...state,
        platformMedia: {
          ...state.platformMedia,
          [event.platformId]: [...(state.platformMedia[event.platformId] ?? []), ...event.items],
        },
      };
    case 'removeMedia':
      if (event.platformId === null) {
        return { ...state, sharedMedia: state.sharedMedia.filter((item) => item.id !== event.id) };
      }
      return {
        ...state,
        platformMedia: {
          ...state.platformMedia,
          [event.platformId]: (state.platformMedia[event.platformId] ?? []).filter(
            (item) => item.id !== event.id,
          ),
        },
      };
    case 'setTitle':
      return { ...state, title: event.title };
    case 'setAction':
      return { ...state, action: event.action };
    case 'setScheduleAt':
      // Picking a time is choosing to schedule.
      return {
        ...state,
        scheduleAt: event.value,
        action: event.value ? 'schedule' : state.action,
      };
    case 'setAltText': {
      const described = (items: MediaItem[]) =>
        items.map((item) => (item.id === event.itemId ? { ...item, altText: event.text } : item));
      return {
        ...state,
        sharedMedia: described(state.sharedMedia),
        platformMedia: Object.fromEntries(
          Object.entries(state.platformMedia).map(([id, items]) => [id, described(items)]),
        ),
      };
    }
    case 'setLinkTracking':
      return { ...state, linkTracking: event.value };
    case 'setShortLinks':
      return { ...state, shortLinks: event.value };
    case 'setMastodon':
      return { ...state, mastodon: { ...state.mastodon, [event.platformId]: event.settings } };
    case 'setGoogleBusiness':
      return {
        ...state,
        googleBusiness: { ...state.googleBusiness, [event.platformId]: event.settings },
      };
    case 'reset':
      return event.state;
  }
}

/** The text a network gets in the current mode. */
export function textFor(state: ComposeState, platformId: string): string {
  return state.mode === 'custom' ? (state.customTexts[platformId] ?? '') : state.sharedText;
}

/** The files a network gets: the shared ones, then its own. */
export function mediaFor(state: ComposeState, platformId: string): MediaItem[] {
  return [...state.sharedMedia, ...(state.platformMedia[platformId] ?? [])];
}

/** Every file the request uploads: the shared ones and those of the selected networks. */
export function uploadedMedia(state: ComposeState): MediaItem[] {
  return [
    ...state.sharedMedia,
    ...state.platformIds.flatMap((id) => state.platformMedia[id] ?? []),
  ];
}

/** Every file held in the form, also of networks unselected since (their previews stay alive). */
export function allMedia(state: ComposeState): MediaItem[] {
  return [...state.sharedMedia, ...Object.values(state.platformMedia).flat()];
}
