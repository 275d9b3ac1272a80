import {
  applyLinkTracking,
  shortLinkBase,
  withShortLinkLengths,
  contentRequiredMessage,
  MAX_FILES_PER_POST,
  TOO_MANY_FILES_MESSAGE,
  validatePostTargets,
  type PostContent,
  type PostValidationError,
} from '@herald/contract';
import type { ComposePlatform } from './compose-platforms';
import { mediaFor, textFor, uploadedMedia, type ComposeState } from './compose-state';
import { scheduleProblem } from './schedule';

export const EMPTY_POST = 'Write the text of the post or add an image or video.';
export const NO_PLATFORM_SELECTED = 'Select at least one account to post to.';

/** What the contract's rules say about the post as it stands; recomputed on every change. */
export interface ComposeIssues {
  /** What a network refuses in an account's text (length, cashtags, links…), by account id. */
  textErrors: Record<string, string>;
  /** Media rules that fail, network by network. */
  mediaErrors: PostValidationError[];
  /** Every rule an account's network would refuse the post for, by account id (shown on its tile). */
  accountProblems: Record<string, string[]>;
  /** Set when the post uploads more files than docs/product.md#constants allows. */
  tooManyFiles: string | null;
  /** Set when the member chose to schedule and the time cannot be used. */
  scheduleError: string | null;
}

/** Herald's short links are served on the host the app is served on (its PUBLIC_URL). */
const sentLength = (text: string, shortLinks: boolean) =>
  shortLinks ? withShortLinkLengths(text, shortLinkBase(window.location.origin)) : text;

/** Rules about what the text holds: shown with the text, not the media. */
const TEXT_RULE = /\.(text-length|cashtags|links|hashtags|mentions)$/;

/**
 * Runs the shared rule set (`publishProblems` through validatePostTargets: the server and the
 * adapters run the same) on every selected account.
 */
export function composeIssues(
  state: ComposeState,
  selected: readonly ComposePlatform[],
  zone: string,
  now: number = Date.now(),
): ComposeIssues {
  const errors = validatePostTargets(
    selected.map((platform) => ({
      platformId: platform.id,
      platformName: platform.label,
      constraints: platform.constraints,
      // Counted as it will be sent: with the post's link tracking (X counts each link as 23),
      // each link as long as the short link it becomes (docs/analytics.md#short-links).
      text: sentLength(
        applyLinkTracking(textFor(state, platform.id), state.linkTracking, platform.name),
        state.shortLinks === true,
      ),
      media: mediaFor(state, platform.id).map((item) => item.facts),
    })),
  );
  const isText = (e: PostValidationError) =>
    e.field === 'content' || (e.rule !== undefined && TEXT_RULE.test(e.rule));
  const textErrors: Record<string, string> = {};
  const accountProblems: Record<string, string[]> = {};
  for (const error of errors) {
    if (isText(error)) {
      const before = textErrors[error.platformId];
      textErrors[error.platformId] = before ? `${before} ${error.message}` : error.message;
    }
    if (error.message !== TOO_MANY_FILES_MESSAGE)
      (accountProblems[error.platformId] ??= []).push(error.message);
  }
  return {
    textErrors,
    accountProblems,
    // The cap is about the whole upload, said once below, not once per network.
    mediaErrors: errors.filter((e) => !isText(e) && e.message !== TOO_MANY_FILES_MESSAGE),
    tooManyFiles: uploadedMedia(state).length > MAX_FILES_PER_POST ? TOO_MANY_FILES_MESSAGE : null,
    scheduleError:
      state.action === 'schedule' ? scheduleProblem(state.scheduleAt, zone, now) : null,
  };
}

export function hasBlockingIssues(issues: ComposeIssues): boolean {
  return (
    Object.keys(issues.textErrors).length > 0 ||
    issues.mediaErrors.length > 0 ||
    issues.tooManyFiles !== null ||
    issues.scheduleError !== null
  );
}

/** What Create Post finds missing when pressed (docs/product.md#posts-validation). */
export interface SubmitProblems {
  /** 'Content for platform ID {id} is required', by platform id (per-platform mode). */
  content: Record<string, string>;
  /** Shared mode with neither text nor media. */
  empty: string | null;
}

export function submitProblems(
  state: ComposeState,
  selected: readonly ComposePlatform[],
): SubmitProblems {
  const content: Record<string, string> = {};
  if (state.mode === 'custom') {
    for (const platform of selected) {
      if (!textFor(state, platform.id).trim())
        content[platform.id] = contentRequiredMessage(platform.platformId);
    }
  }
  const empty =
    state.mode === 'shared' && !state.sharedText.trim() && uploadedMedia(state).length === 0
      ? EMPTY_POST
      : null;
  return { content, empty };
}

export function hasSubmitProblems(problems: SubmitProblems): boolean {
  return Object.keys(problems.content).length > 0 || problems.empty !== null;
}

/**
 * The `content` the server gets: the shared text, or an object with each selected account's
 * text and a `default` (the shared text, else the first text written) for lists and search.
 */
export function postContent(
  state: ComposeState,
  selected: readonly ComposePlatform[],
): PostContent {
  if (state.mode === 'shared') return state.sharedText;
  const texts = Object.fromEntries(selected.map((p) => [p.id, textFor(state, p.id)]));
  const fallback = state.sharedText.trim()
    ? state.sharedText
    : (Object.values(texts).find((text) => text.trim()) ?? '');
  return { default: fallback, ...texts };
}
