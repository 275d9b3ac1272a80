import twitterText from 'twitter-text';
import {
  firstCommentIsPost,
  firstCommentLimitOf,
  MAX_THREAD_PARTS,
  supportsFirstComment,
  supportsThread,
  THREAD_NETWORKS,
  type FollowUpsInput,
} from './follow-ups.js';
import {
  constraintsForAccount,
  countText,
  formatFileSize,
  mediaCountProblems,
  mediaFileProblems,
  mediaKindOf,
  textLimitOf,
  type MediaFacts,
} from './media-rules.js';
import {
  BLUESKY_MAX_TEXT_BYTES,
  INSTAGRAM_CAPTION_LIMITS,
  LINKEDIN_MAX_IMAGE_PIXELS,
  LINKEDIN_MIN_VIDEO_BYTES,
  NETWORK_MEDIA_CONSTRAINTS,
  THREADS_MAX_LINKS,
  X_MAX_CASHTAGS,
  X_MAX_GIF_BYTES,
} from './network-constraints.js';
import { isPlatformName } from './network-traits.js';
import { YOUTUBE_DESCRIPTION_MAX_BYTES } from './youtube.js';
import { PLATFORM_NAMES, type MediaConstraints, type PlatformName } from './platforms.js';

/*
 * The one rule set that decides, while a post is written, whether each network will take it
 * (docs/product.md#media-rules, docs/networks.md#composer-limits). The composer runs it as the
 * person types, the server at every way a post enters the schedule, and each adapter once more
 * just before it calls its network. A queued post must never fail unattended over a rule Herald
 * could have known when it was written.
 *
 * Two kinds of rule meet here:
 * - limits that are data (text length, how many files, each file's type, size, duration,
 *   dimensions and proportions): read from the platform row's stored `mediaConstraints` when
 *   the caller has them (operators may adjust those), else from the network's own numbers in
 *   network-constraints.ts;
 * - rules about the post's shape that only code can say (which media mix, cashtags, links,
 *   hashtags, mentions, pixels, threads, first comments): these belong to the network and
 *   always apply.
 */

/** One post as one account will publish it. */
export interface PostShape {
  /** The text this account will publish (its own version if the post has per-network texts). */
  text: string;
  media: MediaFacts[];
  /** Texts of the follow-up thread parts (X, Threads), in order; [] when none. */
  threadParts: string[];
  /** The first comment's text, or null. */
  firstComment: string | null;
}

/** A rule the post breaks: `rule` is a stable key (`x.media-mix`, `threads.links`), `message` a sentence. */
export interface RuleProblem {
  rule: string;
  message: string;
}

/** What is known about the account the post goes to. */
export interface AccountRules {
  /** The account's own text limit (an X Premium subscriber's), replacing the network's. */
  textLimit?: number | null;
  /** The platform row's stored constraints; the network's own when absent. */
  constraints?: MediaConstraints | null;
  /** How sentences name the account ("Facebook (Harbor Cafe)"); the network's name when absent. */
  label?: string;
}

/** The network's name as Herald spells it ("x" → "X"); an unknown name is kept as given. */
export function networkNameOf(network: string): string {
  const trimmed = network.trim();
  return PLATFORM_NAMES.find((n) => n.toLowerCase() === trimmed.toLowerCase()) ?? trimmed;
}

/** The network's own constraints (network-constraints.ts), or null for a network Herald has none for. */
export function networkConstraintsOf(network: string): MediaConstraints | null {
  const name = networkNameOf(network);
  return isPlatformName(name) ? NETWORK_MEDIA_CONSTRAINTS[name] : null;
}

/** "X", "X and Threads", "X, Threads and Bluesky". */
const listOf = (names: readonly string[]) =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;

const keyOf = (network: string) => network.toLowerCase().replace(/[^a-z0-9]+/g, '-');
const isGif = (file: MediaFacts) => file.mimeType.toLowerCase() === 'image/gif';
const isVideo = (file: MediaFacts) => mediaKindOf(file) === 'video';

/** Cashtags ($TICKER) as X finds them, each occurrence counted. */
export const cashtagsOf = (text: string) => twitterText.extractCashtags(text).map((t) => `$${t}`);
/** Distinct links in a text, bare domains included ("www.threads.com"), as Threads counts them. */
export const linksOf = (text: string) => [...new Set(twitterText.extractUrls(text))];
export const hashtagsOf = (text: string) => twitterText.extractHashtags(text);
export const mentionsOf = (text: string) => twitterText.extractMentions(text);

/**
 * Where a text goes out: the post itself, a thread part, or the first comment. `prefix` starts
 * the sentence for the follow-ups ("X: part 2 of 3"), as follow-up messages always have.
 */
interface TextPlace {
  kind: 'post' | 'part' | 'first_comment';
  /** "this post", "part 2 of 3", "the first comment". */
  noun: string;
  /** "X: part 2 of 3 " before the sentence, or "" for the post. */
  prefix: string;
}

const POST_PLACE: TextPlace = { kind: 'post', noun: 'this post', prefix: '' };

/**
 * The rules about what a text holds, for one network, wherever the network publishes it as a
 * post of its own (the post, each thread part, an X first comment, which is a reply post).
 */
function textContentProblems(network: string, text: string, place: TextPlace): RuleProblem[] {
  const key = keyOf(network);
  const problems: RuleProblem[] = [];
  const lead = (sentence: string) => (place.prefix ? `${place.prefix}: ${sentence}` : sentence);
  const where = place.kind === 'post' ? `the ${network} version of this post` : place.noun;
  if (network === 'X') {
    // https://docs.x.com/x-api/posts/manage-tweets/introduction ("Creating Posts"): posts
    // created through the API hold at most one cashtag.
    const cashtags = cashtagsOf(text);
    if (cashtags.length > X_MAX_CASHTAGS) {
      problems.push({
        rule: `${key}.cashtags`,
        message: lead(
          `X takes one cashtag per post from apps like Herald; ${place.noun} has ${cashtags.length} (${cashtags.join(', ')}). Keep one in ${where}.`,
        ),
      });
    }
  }
  if (network === 'Threads') {
    // https://developers.facebook.com/documentation/threads/create-posts/text-attachments
    // (Limitations): since 2025-12-22 a post with more than 5 distinct links fails with
    // THREADS_API__LINK_LIMIT_EXCEEDED.
    const links = linksOf(text);
    if (links.length > THREADS_MAX_LINKS) {
      problems.push({
        rule: `${key}.links`,
        message: lead(
          `Threads refuses a post with more than ${THREADS_MAX_LINKS} links; ${place.noun} has ${links.length}. Remove links from ${where} until ${THREADS_MAX_LINKS} are left.`,
        ),
      });
    }
  }
  if (network === 'Bluesky') {
    // app.bsky.feed.post: `text` has maxLength 3000 (bytes) beside its 300 graphemes, so a
    // short text of long characters (emoji with modifiers, some scripts) can still be refused.
    const bytes = new TextEncoder().encode(text).length;
    if (bytes > BLUESKY_MAX_TEXT_BYTES) {
      problems.push({
        rule: `${key}.text-length`,
        message: lead(
          `Bluesky refuses a post of more than ${BLUESKY_MAX_TEXT_BYTES.toLocaleString('en-US')} bytes; ${place.noun} has ${bytes.toLocaleString('en-US')}. Shorten ${where}.`,
        ),
      });
    }
  }
  if (network === 'YouTube' && place.kind === 'post') {
    // https://developers.google.com/youtube/v3/docs/videos (snippet.description): at most 5,000
    // bytes, any UTF-8 character but < and >; YouTube answers `invalidDescription`.
    const bytes = new TextEncoder().encode(text).length;
    if (bytes > YOUTUBE_DESCRIPTION_MAX_BYTES) {
      problems.push({
        rule: `${key}.description-bytes`,
        message: `YouTube refuses a description of more than ${YOUTUBE_DESCRIPTION_MAX_BYTES.toLocaleString('en-US')} bytes; this one has ${bytes.toLocaleString('en-US')} (emoji and many scripts take several bytes a character). Shorten ${where}.`,
      });
    }
    if (/[<>]/.test(text)) {
      problems.push({
        rule: `${key}.description-brackets`,
        message: `YouTube descriptions cannot contain < or >. Remove them from ${where}.`,
      });
    }
  }
  if (network === 'Instagram' && place.kind === 'post') {
    // https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media
    // (caption): at most 30 hashtags and 20 @ tags.
    const hashtags = hashtagsOf(text).length;
    if (hashtags > INSTAGRAM_CAPTION_LIMITS.hashtags) {
      problems.push({
        rule: `${key}.hashtags`,
        message: `Instagram takes at most ${INSTAGRAM_CAPTION_LIMITS.hashtags} hashtags in a caption; this one has ${hashtags}. Remove ${hashtags - INSTAGRAM_CAPTION_LIMITS.hashtags} from the Instagram version of this post.`,
      });
    }
    const mentions = mentionsOf(text).length;
    if (mentions > INSTAGRAM_CAPTION_LIMITS.mentions) {
      problems.push({
        rule: `${key}.mentions`,
        message: `Instagram takes at most ${INSTAGRAM_CAPTION_LIMITS.mentions} @mentions in a caption; this one has ${mentions}. Remove ${mentions - INSTAGRAM_CAPTION_LIMITS.mentions} from the Instagram version of this post.`,
      });
    }
  }
  return problems;
}

const hasVideo = (media: MediaFacts[]) => media.some(isVideo);

/**
 * Which files may go together in one post, per network: when `refuses` holds for two or more
 * files, the post is refused with `message`; null where any mix goes (Instagram and Threads
 * carousels mix images and videos freely). Every network says, or the typecheck fails.
 */
const MEDIA_MIX: Record<
  PlatformName,
  { refuses: (media: MediaFacts[]) => boolean; message: string } | null
> = {
  Instagram: null,
  Threads: null,
  // https://docs.x.com/x-api/media/introduction: up to 4 images, or 1 GIF, or 1 video.
  X: {
    refuses: (media) => media.some((m) => isVideo(m) || isGif(m)),
    message:
      'X takes one video or one GIF per post, on its own. Keep only that file in the X version of this post.',
  },
  // A Page post is photos (attached_media) or one video (/videos), never both.
  Facebook: {
    refuses: hasVideo,
    message:
      'Facebook takes photos or one video per post, not both and not several videos. Keep only the photos, or only one video, in the Facebook version of this post.',
  },
  // A post's content is one video, or one image, or a MultiImage of 2–20 images.
  LinkedIn: {
    refuses: hasVideo,
    message:
      'LinkedIn takes one video per post, on its own. Keep only the video in the LinkedIn version of this post.',
  },
  // Content Posting API: a video post, or a photo post of 1–35 photos.
  TikTok: {
    refuses: hasVideo,
    message:
      'TikTok takes one video on its own, or photos without a video. Keep only the video, or only the photos, in the TikTok version of this post.',
  },
  // A status holds up to four images, or one video or audio file on its own.
  Mastodon: {
    refuses: hasVideo,
    message:
      'Mastodon takes one video per post, on its own. Keep only the video, or only the images, in the Mastodon version of this post.',
  },
  // A post's embed is either `app.bsky.embed.images` (up to four) or one `app.bsky.embed.video`.
  Bluesky: {
    refuses: hasVideo,
    message:
      'Bluesky takes one video per post, on its own. Keep only the video, or only the images, in the Bluesky version of this post.',
  },
  // videos.insert uploads one video; an image can only go with it, as its thumbnail.
  YouTube: {
    refuses: (media) => !hasVideo(media),
    message:
      "YouTube takes one video per post; an image can only go with it as the video's thumbnail. Add the video to the YouTube version of this post.",
  },
  // One photo per local post (maxMediaPerPost): there is never a mix to judge.
  'Google Business Profile': null,
  // A pin is images (`image_base64`, `multiple_image_base64`) or one video (`video_id`) whose
  // cover may be one image.
  Pinterest: {
    refuses: (media) => hasVideo(media) && (media.length > 2 || media.every(isVideo)),
    message:
      'Pinterest takes images, or one video with at most one image as its cover. Keep only the images, or the video and its cover, in the Pinterest version of this post.',
  },
};

/** The network's rules about which files may go together in one post. */
function mediaMixProblems(network: string, media: MediaFacts[]): RuleProblem[] {
  const mix = isPlatformName(network) ? MEDIA_MIX[network] : null;
  if (!mix || media.length < 2 || !mix.refuses(media)) return [];
  return [{ rule: `${keyOf(network)}.media-mix`, message: mix.message }];
}

/** Rules on single files that the data-driven constraints cannot say. */
function fileShapeProblems(network: string, media: MediaFacts[]): RuleProblem[] {
  if (network !== 'LinkedIn') return [];
  const problems: RuleProblem[] = [];
  for (const file of media) {
    if (mediaKindOf(file) === 'video' && file.size < LINKEDIN_MIN_VIDEO_BYTES) {
      problems.push({
        rule: 'linkedin.video-size',
        message: `${file.fileName}: LinkedIn takes videos of at least ${formatFileSize(LINKEDIN_MIN_VIDEO_BYTES)}; this one is ${formatFileSize(file.size)}. Upload a longer or better-quality video.`,
      });
    }
    if (mediaKindOf(file) !== 'image' || !file.width || !file.height) continue;
    const pixels = file.width * file.height;
    if (pixels > LINKEDIN_MAX_IMAGE_PIXELS) {
      problems.push({
        rule: 'linkedin.image-pixels',
        message: `${file.fileName}: LinkedIn takes images of fewer than ${(LINKEDIN_MAX_IMAGE_PIXELS + 1).toLocaleString('en-US')} pixels; this one is ${file.width}x${file.height} (${pixels.toLocaleString('en-US')}). Make it smaller and upload it again.`,
      });
    }
  }
  return problems;
}

/** A text's length over a limit, counted the network's way ("300 of 280 characters"), or null. */
function overLimit(text: string, limit: ReturnType<typeof textLimitOf>) {
  if (!limit) return null;
  const used = countText(text, limit.counting);
  return used > limit.max ? `${used} of ${limit.max} characters` : null;
}

/**
 * The rules of the post's own text alone (its length as the network counts it, and what it may
 * hold: X's cashtag, Threads' links, Instagram's hashtags and mentions): what can be checked
 * before the files arrive.
 */
export function postTextProblems(
  network: string,
  shape: Pick<PostShape, 'text' | 'media'>,
  account: AccountRules = {},
): RuleProblem[] {
  return postBodyProblems(network, shape, account).filter((p) => TEXT_RULES.test(p.rule));
}

/** Keys of the rules about the post's own text. */
const TEXT_RULES = /^[a-z0-9-]+\.(text-length|cashtags|links|hashtags|mentions)$/;

/** Whether a rule is about the post's text (its length, cashtags, links…) rather than its files. */
export const isTextRule = (rule: string | undefined) => rule !== undefined && TEXT_RULES.test(rule);

/**
 * The rules of the post itself, not of its files one by one: its text (length and content),
 * how many files and which mix, and that it has something to publish. What an adapter checks
 * again just before it calls its network (files were measured and checked when uploaded).
 */
export function postBodyProblems(
  network: string,
  shape: Pick<PostShape, 'text' | 'media'>,
  account: AccountRules = {},
): RuleProblem[] {
  const name = networkNameOf(network);
  const key = keyOf(name);
  const label = account.label ?? name;
  // TikTok takes 4,000 characters under photos but 2,200 under a video: Herald holds every
  // TikTok text to 2,200, so a text does not turn wrong when a video replaces the photos.
  const constraints = constraintsForAccount(
    account.constraints === undefined ? networkConstraintsOf(name) : account.constraints,
    account.textLimit,
  );
  const problems: RuleProblem[] = [];
  if (shape.text.trim() === '' && shape.media.length === 0) {
    problems.push({ rule: `${key}.empty`, message: `Write some text or add media for ${label}.` });
  }
  const limit = textLimitOf(constraints);
  const used = limit ? countText(shape.text, limit.counting) : 0;
  if (limit && used > limit.max) {
    problems.push({
      rule: `${key}.text-length`,
      message: `The text is too long for ${label}: ${used} of ${limit.max} characters.`,
    });
  }
  problems.push(...textContentProblems(name, shape.text, POST_PLACE));
  const counts = mediaCountProblems(shape.media, constraints, label);
  // With no media, "needs at least one image or video" says more than "write some text or add
  // media": keep that one.
  const empty = problems.findIndex((p) => p.rule === `${key}.empty`);
  if (empty >= 0 && counts.some((p) => p.rule === 'media-required')) problems.splice(empty, 1);
  for (const p of counts) {
    problems.push({
      rule: p.rule === 'too-many-files' ? 'post.too-many-files' : `${key}.${p.rule}`,
      message: p.message,
    });
  }
  problems.push(...mediaMixProblems(name, shape.media));
  if (name === 'YouTube' && shape.media.length === 1 && !hasVideo(shape.media))
    problems.push({
      rule: 'youtube.video-required',
      message: `${label} needs a video: YouTube publishes videos only (an image can go with it as its thumbnail).`,
    });
  return problems;
}

/** Each file's problems on this account's network, naming the file. */
export function mediaFilesProblems(
  network: string,
  media: MediaFacts[],
  account: AccountRules = {},
): RuleProblem[] {
  const name = networkNameOf(network);
  const key = keyOf(name);
  const constraints =
    account.constraints === undefined ? networkConstraintsOf(name) : account.constraints;
  const problems: RuleProblem[] = [];
  for (const file of media) {
    for (const p of mediaFileProblems(file, gifRulesOf(name, file, constraints))) {
      problems.push({ rule: `${key}.${p.rule}`, message: `${file.fileName}: ${p.message}` });
    }
  }
  problems.push(...fileShapeProblems(name, media));
  return problems;
}

/**
 * X takes GIFs up to 15 MB where other images stop at 5 MB (docs/networks.md#x-limits): a GIF is
 * judged with the larger size, every other rule of X's images unchanged.
 */
function gifRulesOf(
  network: string,
  file: MediaFacts,
  constraints: MediaConstraints | null,
): MediaConstraints | null {
  if (network !== 'X' || !isGif(file) || !constraints?.image) return constraints;
  const maxFileSize = Math.max(constraints.image.maxFileSize ?? 0, X_MAX_GIF_BYTES);
  return { ...constraints, image: { ...constraints.image, maxFileSize } };
}

/**
 * The thread parts and first comment of one account (docs/product.md#threads-and-first-comments):
 * a network without threads or first comments; an empty part; each part by the account's post
 * rules (length, and what a post may hold: X's cashtag, Threads' links); the first comment by its
 * network's comment rule (on X a post of the account's own, so X's post rules).
 */
export function followUpRuleProblems(
  network: string,
  followUps: Pick<PostShape, 'threadParts' | 'firstComment'>,
  account: AccountRules = {},
): RuleProblem[] {
  const name = networkNameOf(network);
  const key = keyOf(name);
  const label = account.label ?? name;
  const constraints = constraintsForAccount(
    account.constraints === undefined ? networkConstraintsOf(name) : account.constraints,
    account.textLimit,
  );
  const problems: RuleProblem[] = [];
  const parts = followUps.threadParts;
  if (parts.length > 0 && !supportsThread(name)) {
    problems.push({
      rule: `${key}.thread`,
      message: `${label}: ${name} posts cannot be a thread; only ${listOf(THREAD_NETWORKS)} posts can have several parts. Remove the extra parts for this account.`,
    });
  } else if (parts.length > 0) {
    const total = parts.length + 1;
    if (total > MAX_THREAD_PARTS) {
      problems.push({
        rule: `${key}.thread-parts`,
        message: `${label}: a thread can have at most ${MAX_THREAD_PARTS} parts; this one has ${total}. Remove ${total - MAX_THREAD_PARTS}.`,
      });
    }
    parts.forEach((text, i) => {
      const n = i + 2;
      if (!text.trim()) {
        problems.push({
          rule: `${key}.thread-part-empty`,
          message: `${label}: part ${n} of ${total} is empty. Write its text or remove it.`,
        });
        return;
      }
      const long = overLimit(text, textLimitOf(constraints));
      if (long) {
        problems.push({
          rule: `${key}.thread-part-length`,
          message: `${label}: part ${n} of ${total} is too long (${long}).`,
        });
      }
      const noun = `part ${n} of ${total}`;
      problems.push(
        ...textContentProblems(name, text, { kind: 'part', noun, prefix: label }).map((p) => ({
          ...p,
          rule: `${p.rule.replace(`${key}.`, `${key}.thread-part-`)}`,
        })),
      );
    });
  }
  const comment = followUps.firstComment;
  if (comment !== null && comment.trim() !== '') {
    if (!supportsFirstComment(name)) {
      problems.push({
        rule: `${key}.first-comment`,
        message: supportsThread(name)
          ? `${label}: ${name} has no first comment; add a second part to the thread instead.`
          : `${label}: ${name} does not let Herald publish a first comment; remove it for this account.`,
      });
    } else {
      const long = overLimit(comment, firstCommentLimitOf(name, constraints));
      if (long) {
        problems.push({
          rule: `${key}.first-comment-length`,
          message: firstCommentIsPost(name)
            ? `${label}: the first comment is too long for ${name}, where it is a post of its own (${long}).`
            : `${label}: the first comment is too long for a comment on ${name} (${long}).`,
        });
      }
      // Published as a post of its own, it is held to what a post may hold.
      if (firstCommentIsPost(name)) {
        problems.push(
          ...textContentProblems(name, comment, {
            kind: 'first_comment',
            noun: 'the first comment',
            prefix: label,
          }).map((p) => ({ ...p, rule: p.rule.replace(`${key}.`, `${key}.first-comment-`) })),
        );
      }
    }
  }
  return problems;
}

/**
 * Every rule the network applies when this post is published on it, as sentences naming the
 * network that say what to change; empty when the network will take the post. `network` is the
 * platform's name ("X", "Threads"…); `account` narrows it to one connected account.
 */
export function publishProblems(
  network: string,
  shape: PostShape,
  account: AccountRules = {},
): RuleProblem[] {
  return [
    ...postBodyProblems(network, shape, account),
    ...mediaFilesProblems(network, shape.media, account),
    ...followUpRuleProblems(network, shape, account),
  ];
}

/**
 * Every problem of one account's parts and first comment, as sentences naming the account
 * (docs/product.md#threads-and-first-comments); `followUpRuleProblems` with the input of a create
 * or edit payload.
 */
export function followUpProblems(
  target: { networkName: string; label: string; constraints: MediaConstraints | null },
  input: FollowUpsInput,
): string[] {
  return followUpRuleProblems(
    target.networkName,
    { threadParts: input.parts ?? [], firstComment: input.firstComment ?? null },
    { constraints: target.constraints, label: target.label },
  ).map((p) => p.message);
}

interface PostTargetInput {
  platformId: string;
  /** How sentences name the account: the network's name, or "Facebook (Page name)". */
  platformName: string;
  /** The network's own name ("Facebook"); taken from platformName when absent. */
  network?: string;
  constraints: MediaConstraints | null;
  text: string;
  media: MediaFacts[];
}

export interface PostValidationError {
  platformId: string;
  platformName: string;
  /**
   * `media` errors (files, and every per-account rule but the text's length) are reported as
   * platformValidationErrors; `content` errors as the message.
   */
  field: 'media' | 'content';
  message: string;
  /** The rule's key (`x.media-mix`), when the error comes from the shared rule set. */
  rule?: string;
}

/** A label's network: "Facebook (Harbor Cafe)" → "Facebook". */
const networkOfLabel = (label: string) => label.replace(/ \(.*\)$/s, '');

/**
 * How the server answers a rule's problem: the text's length and emptiness as the request's
 * message (as they always were), every other rule per account in `platformValidationErrors`.
 */
export const fieldOfRule = (rule: string): PostValidationError['field'] =>
  /\.(text-length|empty)$/.test(rule) ? 'content' : 'media';

/**
 * Runs the post's rules (everything but its thread parts and first comment, which come with
 * their own payload) for every target of a post: `publishProblems` per account.
 */
export function validatePostTargets(targets: PostTargetInput[]): PostValidationError[] {
  const errors: PostValidationError[] = [];
  for (const target of targets) {
    const at = { platformId: target.platformId, platformName: target.platformName };
    const network = target.network ?? networkOfLabel(target.platformName);
    const account: AccountRules = { constraints: target.constraints, label: target.platformName };
    const shape = { text: target.text, media: target.media };
    // A post with no text and no files is refused by the caller's content rules, with the
    // same sentence; only the rules that hold once there is something to publish are new here.
    const problems = [
      ...postBodyProblems(network, shape, account).filter((p) => !p.rule.endsWith('.empty')),
      ...mediaFilesProblems(network, target.media, account),
    ];
    for (const p of problems) {
      errors.push({
        ...at,
        field: fieldOfRule(p.rule),
        message: p.message,
        rule: p.rule,
      });
    }
  }
  return errors;
}
