import {
  type PostShape,
  publishProblems,
  youtubeSettingsIssues,
  YouTubePostSettingsSchema,
} from '@herald/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blueskyDriver,
  type Driver,
  facebookDriver,
  googleBusinessDriver,
  instagramDriver,
  linkedinDriver,
  mastodonDriver,
  pinterestDriver,
  threadsDriver,
  tiktokDriver,
  xDriver,
  youtubeDriver,
} from './drift/drivers.js';
import { makeFile, MediaRoute } from './drift/media.js';
import { around, type NetworkProfile, type Random, seededRandom, shapeOf } from './drift/shapes.js';

/**
 * Herald's rules against the networks' own refusals. For each network, post shapes drawn from a
 * seed are judged by the shared rules (accepted or refused) and published by the network's
 * adapter to its emulator, which encodes the network's documentation on its own
 * (docs/networks.md#sandboxes). Any disagreement fails, printing the shape and the seed:
 * either the rules or the emulator no longer say what the network says.
 *
 * DRIFT_SEED replays a run; DRIFT_SHAPES sets how many shapes each network gets.
 */
const SEED = Number(process.env.DRIFT_SEED ?? 20_260_301);
const SHAPES = Number(process.env.DRIFT_SHAPES ?? 300);
console.log(
  `publish-rules drift: seed ${SEED} (DRIFT_SEED=${SEED} replays it), ${SHAPES} shapes per network`,
);

const MB = 1024 * 1024;
const GB = 1024 * MB;

const PROFILES: Record<string, NetworkProfile> = {
  X: {
    textLengths: [20, 120, 200, 270, ...around(280)],
    imageTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
    videoTypes: ['video/mp4', 'video/quicktime'],
    counts: [0, 0, 1, 1, 2, 3, 4, 4, 5],
    imageSizes: [5 * MB, 5 * MB + 1, 15 * MB + 1],
    videoSizes: [512 * MB + 1],
    durations: [0.3, 0.5, 3, 12, 140, 141],
    imageDimensions: [
      [640, 480],
      [1080, 1080],
      [200, 2000],
    ],
    videoDimensions: [
      [320, 180],
      [180, 320],
    ],
    mixChance: 0.3,
    threadParts: true,
    firstComment: true,
    followUpLengths: [20, 279, 280, 281],
    links: [1, 2, 5],
    mentions: [1, 3],
    hashtags: [1, 3],
    cashtags: [1, 1, 2, 3],
  },
  Instagram: {
    textLengths: [30, 500, ...around(2200)],
    imageTypes: ['image/jpeg', 'image/jpeg', 'image/png'],
    videoTypes: ['video/mp4', 'video/quicktime'],
    counts: [0, 1, 1, 2, 3, 10, 11],
    imageSizes: [8 * MB, 8 * MB + 1],
    videoSizes: [300 * MB, 300 * MB + 1],
    durations: [2.9, 3, 12, 900, 901],
    imageDimensions: [
      [1080, 1080],
      [1080, 1350],
      [1080, 1351],
      [1080, 566],
      [1080, 560],
      [319, 319],
      [320, 320],
    ],
    videoDimensions: [
      [180, 320],
      [320, 320],
    ],
    mixChance: 0.3,
    threadParts: false,
    firstComment: true,
    followUpLengths: [40, 2200, 2201],
    links: [1, 3],
    mentions: [1, 5, 20, 21],
    hashtags: [1, 10, 30, 31],
    cashtags: [1],
  },
  Facebook: {
    textLengths: [30, 2000, ...around(63_206)],
    imageTypes: ['image/jpeg', 'image/png', 'image/gif'],
    // Facebook videos and photo sizes are left out: the emulator does not check them yet.
    videoTypes: [],
    counts: [0, 0, 1, 2, 10, 11],
    imageSizes: [],
    videoSizes: [],
    durations: [5, 12],
    imageDimensions: [
      [1080, 1080],
      [640, 480],
    ],
    videoDimensions: [[320, 180]],
    mixChance: 0.2,
    threadParts: false,
    firstComment: true,
    followUpLengths: [40, 8000, 8001],
    links: [1, 3],
    mentions: [1],
    hashtags: [1, 5],
    cashtags: [1],
  },
  Threads: {
    textLengths: [30, 300, 490, ...around(500)],
    imageTypes: ['image/jpeg', 'image/png', 'image/gif'],
    videoTypes: ['video/mp4', 'video/quicktime'],
    counts: [0, 0, 1, 2, 5, 20, 21],
    imageSizes: [8 * MB, 8 * MB + 1],
    videoSizes: [GB, GB + 1],
    durations: [12, 300, 301],
    imageDimensions: [
      [1080, 1080],
      [1080, 1350],
    ],
    videoDimensions: [[180, 320]],
    mixChance: 0.3,
    threadParts: true,
    firstComment: false,
    followUpLengths: [30, 499, 500, 501],
    links: [1, 3, 5, 6, 7],
    mentions: [1, 2],
    hashtags: [1],
    cashtags: [1],
  },
  TikTok: {
    textLengths: [30, 30, 90, 91, 2199, 2200, 2201, 4000, 4001],
    imageTypes: ['image/jpeg', 'image/webp', 'image/png'],
    videoTypes: ['video/mp4', 'video/quicktime', 'video/webm'],
    counts: [1, 1, 1, 2, 3, 35, 36],
    imageSizes: [20 * MB, 20 * MB + 1],
    videoSizes: [4 * GB + 1],
    durations: [2.9, 3, 12, 12, 600, 601],
    imageDimensions: [
      [1080, 1920],
      [1080, 1080],
    ],
    videoDimensions: [[180, 320]],
    mixChance: 0.2,
    threadParts: false,
    firstComment: false,
    followUpLengths: [],
    links: [1],
    mentions: [1, 5],
    hashtags: [1, 5],
    cashtags: [1],
  },
  LinkedIn: {
    textLengths: [30, 1000, ...around(3000)],
    imageTypes: ['image/jpeg', 'image/png', 'image/gif'],
    videoTypes: ['video/mp4'],
    counts: [0, 0, 1, 2, 20, 21],
    imageSizes: [],
    videoSizes: [],
    durations: [2.9, 3, 12, 1800, 1801],
    imageDimensions: [
      [1080, 1080],
      [1200, 627],
    ],
    videoDimensions: [[320, 180]],
    mixChance: 0.2,
    threadParts: false,
    firstComment: true,
    followUpLengths: [40, 1250, 1251],
    links: [1, 2],
    mentions: [1],
    hashtags: [1, 3],
    cashtags: [1],
  },
  Mastodon: {
    textLengths: [30, 300, 480, ...around(500)],
    imageTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
    videoTypes: ['video/mp4', 'video/quicktime', 'video/webm'],
    counts: [0, 0, 1, 2, 4, 5],
    imageSizes: [16 * MB, 16 * MB + 1],
    videoSizes: [99 * MB + 1],
    durations: [3, 12],
    imageDimensions: [
      [1080, 1080],
      [640, 480],
    ],
    videoDimensions: [[320, 180]],
    mixChance: 0.3,
    threadParts: true,
    firstComment: true,
    followUpLengths: [20, 499, 500, 501],
    links: [1, 2, 5],
    mentions: [1, 3],
    hashtags: [1, 3],
    cashtags: [1],
    mentionServer: 'far-away.example',
  },
  Bluesky: {
    textLengths: [30, 200, 290, ...around(300)],
    imageTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
    videoTypes: ['video/mp4'],
    counts: [0, 0, 1, 2, 4, 5],
    imageSizes: [2_000_000, 2_000_001],
    videoSizes: [],
    durations: [5, 12, 180, 181],
    imageDimensions: [
      [1080, 1080],
      [640, 480],
    ],
    videoDimensions: [[320, 180]],
    mixChance: 0.3,
    threadParts: true,
    firstComment: true,
    followUpLengths: [20, 299, 300, 301],
    links: [1, 2],
    mentions: [1, 2],
    hashtags: [1, 3],
    cashtags: [1],
  },
  // The text is the description (5,000 bytes: CJK and emoji reach it before 5,000 characters);
  // an image beside the video is its thumbnail, refused on a Short (vertical or square, ≤ 3 min).
  YouTube: {
    // 5,000 bytes come at about 1,500 characters of emoji, 2,000 of CJK, 3,100 of a mix.
    textLengths: [30, 400, 1200, 1500, 1600, 1900, 2000, 2100, 3000, 3200, 4999, 5000, 5001],
    imageTypes: ['image/jpeg', 'image/jpeg', 'image/png', 'image/webp', 'image/gif'],
    videoTypes: ['video/mp4', 'video/quicktime'],
    counts: [0, 1, 1, 1, 1, 2, 2, 2, 3],
    imageSizes: [2 * MB, 2 * MB + 1],
    videoSizes: [],
    durations: [5, 12, 179, 181, 600],
    imageDimensions: [
      [1280, 720],
      [640, 360],
    ],
    videoDimensions: [
      [320, 180],
      [180, 320],
      [240, 240],
    ],
    mixChance: 0.6,
    threadParts: false,
    firstComment: false,
    followUpLengths: [],
    links: [1, 3],
    mentions: [1],
    hashtags: [1, 3],
    cashtags: [1],
  },
  'Google Business Profile': {
    textLengths: [30, 400, 1200, ...around(1500)],
    imageTypes: ['image/jpeg', 'image/jpeg', 'image/png', 'image/gif', 'image/webp'],
    videoTypes: ['video/mp4'],
    counts: [0, 0, 1, 1, 1, 2],
    imageSizes: [5 * MB, 5 * MB + 1],
    videoSizes: [],
    durations: [3],
    imageDimensions: [
      [1080, 1080],
      [800, 600],
      [250, 250],
      [249, 400],
      [400, 249],
    ],
    videoDimensions: [[320, 180]],
    mixChance: 0.2,
    threadParts: false,
    firstComment: false,
    followUpLengths: [],
    links: [1, 2],
    mentions: [1],
    hashtags: [1, 3],
    cashtags: [1],
  },
  Pinterest: {
    textLengths: [0, 30, 500, ...around(800)],
    imageTypes: ['image/jpeg', 'image/png', 'image/png', 'image/gif', 'image/webp'],
    videoTypes: ['video/mp4', 'video/mp4', 'video/quicktime', 'video/webm'],
    counts: [0, 1, 1, 2, 3, 5, 6],
    imageSizes: [20 * MB, 20 * MB + 1],
    videoSizes: [],
    durations: [3.9, 4, 12, 900, 901],
    imageDimensions: [
      [1000, 1500],
      [1080, 1080],
    ],
    videoDimensions: [[320, 480]],
    mixChance: 0.3,
    threadParts: false,
    firstComment: false,
    followUpLengths: [],
    links: [1, 2],
    mentions: [1],
    hashtags: [1, 3],
    cashtags: [1],
  },
};

/**
 * What some networks take beside the post's shape, drawn from the same seed and judged by the
 * rules with it: YouTube's video resource (title, tags, category, made for kids, privacy) and
 * whether YouTube publishes it at the post's time (status.publishAt).
 */
interface Extra {
  settings: Record<string, unknown>;
  scheduledAt: Date | null;
  /** The text as the network receives it (a description with < or > now and then). */
  text: string;
}
/**
 * A text of exactly `bytes` UTF-8 bytes in fewer than 2,000 characters: the start of `text`,
 * three-byte CJK characters, and ASCII to end on the byte wanted.
 */
function bytesLong(r: Random, text: string, bytes: number): string {
  let out = [...text].slice(0, 12).join('');
  const size = () => Buffer.byteLength(out);
  while (size() + 4 <= bytes - 10) out += r.pick([' 日本語', ' 漢字', ' 한국어']);
  return out + ' ' + 'a'.repeat(Math.max(0, bytes - size() - 1));
}

const EXTRAS: Record<
  string,
  { draw(r: Random, text: string): Extra; problems(extra: Extra, shape: PostShape): string[] }
> = {
  YouTube: {
    draw(r, text) {
      // Each field is right most of the time and wrong around one limit now and then, so that
      // both verdicts occur and a refusal usually has one reason.
      const odd = () => r.chance(0.12);
      const emoji = r.chance(0.3);
      const titleOf = (length: number) =>
        Array.from({ length }, (_, i) => (emoji && i % 7 === 3 ? '🎉' : 'abcdefgh'[i % 8]))
          .join('')
          .replace(/^(.)/, 'T');
      const title = odd()
        ? r.pick(['', '   ', titleOf(101), titleOf(140), 'Why <b> matters', 'Better > worse'])
        : r.pick(['A walk in the park', titleOf(40), titleOf(99), titleOf(100)]);
      const words = ['garden', 'morning coffee', 'river studio tour', 'launch', 'herald'];
      const tags = Array.from({ length: r.pick([0, 2, 5, 20]) }, (_, i) => `${r.pick(words)}${i}`);
      // Exactly around YouTube's 500 characters: the commas count, and a tag with a space
      // counts with its quotes, so the tags are built up and the last one fills the rest.
      if (odd()) {
        const target = r.pick([498, 499, 500, 501, 502]);
        let used = -1;
        tags.length = 0;
        for (let i = 0; used + 30 < target; i++) {
          const tag = `${r.pick(words)}${i}`;
          tags.push(tag);
          used += 1 + [...tag].length + (tag.includes(' ') ? 2 : 0);
        }
        tags.push('x'.repeat(target - used - 1));
      }
      if (r.chance(0.03)) tags.push('<tag>');
      // Only public or unlisted with YouTube's schedule: with private, Herald refuses it itself
      // (YouTube would make the video public), and YouTube takes it, so there is nothing to compare.
      const privacyStatus = r.pick(['public', 'public', 'public', 'unlisted', 'private']);
      const scheduleOnYouTube = privacyStatus !== 'private' && r.chance(0.3);
      const hour = 3600_000;
      return {
        settings: {
          title,
          tags,
          categoryId: odd() ? r.pick(['3', '99', '0']) : r.pick(['22', '10', '27']),
          privacyStatus,
          madeForKids: r.chance(0.08) ? null : r.chance(0.3),
          notifySubscribers: r.chance(0.5),
          scheduleOnYouTube,
        },
        scheduledAt: r.pick([
          null,
          new Date(Date.now() + hour),
          new Date(Date.now() + 24 * hour),
          ...(odd() ? [new Date(Date.now() - hour)] : []),
        ]),
        text: r.chance(0.04)
          ? `${[...text].slice(0, 40).join('')} <b>`
          : odd()
            ? bytesLong(r, text, r.pick([4998, 5000, 5001, 5003]))
            : text,
      };
    },
    problems(extra, shape) {
      const settings = YouTubePostSettingsSchema.parse(extra.settings);
      return youtubeSettingsIssues(settings, shape.media, {
        scheduledAt: extra.scheduledAt,
        now: new Date(),
      }).map((i) => i.message);
    },
  },
};

const media = new MediaRoute();
beforeAll(() => media.start());
afterAll(() => media.stop());

const DRIVERS: Record<string, (origin: () => string) => Promise<Driver>> = {
  X: xDriver,
  Instagram: instagramDriver,
  Facebook: facebookDriver,
  Threads: threadsDriver,
  TikTok: tiktokDriver,
  LinkedIn: linkedinDriver,
  Mastodon: mastodonDriver,
  Bluesky: blueskyDriver,
  YouTube: youtubeDriver,
  'Google Business Profile': googleBusinessDriver,
  Pinterest: pinterestDriver,
};

interface Disagreement {
  index: number;
  rules: string;
  network: string;
  shape: PostShape;
  extra?: Extra;
}

/** A shape as people read it: long texts cut, media as their facts. */
function describeShape(shape: PostShape): string {
  const cut = (t: string) => {
    const chars = [...t];
    return chars.length > 120
      ? `${chars.slice(0, 60).join('')}…${chars.slice(-40).join('')} (${chars.length} code points)`
      : t;
  };
  return JSON.stringify(
    {
      text: cut(shape.text),
      media: shape.media.map(
        (m) =>
          `${m.mimeType} ${m.size} B${m.width ? ` ${m.width}x${m.height}` : ''}${m.durationSec ? ` ${m.durationSec}s` : ''}`,
      ),
      threadParts: shape.threadParts.map(cut),
      firstComment: shape.firstComment === null ? null : cut(shape.firstComment),
    },
    null,
    1,
  );
}

describe.each(Object.keys(PROFILES))('the rules and the %s emulator', (network) => {
  let driver: Driver;
  beforeAll(async () => {
    driver = await DRIVERS[network]!(() => media.origin);
  }, 60_000);
  afterAll(() => driver?.close());

  it('accept and refuse the same posts', async () => {
    const random = seededRandom(SEED + network.length * 7919 + network.charCodeAt(0));
    const disagreements: Disagreement[] = [];
    let accepted = 0;
    for (let index = 0; index < SHAPES; index++) {
      const spec = shapeOf(random, PROFILES[network]!, index);
      const files = await Promise.all(spec.media.map((m, i) => makeFile(m, `s${index}m${i}`)));
      const extra = EXTRAS[network]?.draw(random, spec.text);
      const shape: PostShape = {
        text: extra?.text ?? spec.text,
        media: files.map((f) => f.facts),
        threadParts: spec.threadParts,
        firstComment: spec.firstComment,
      };
      const problems = [
        ...publishProblems(network, shape).map((p) => p.message),
        ...(extra ? EXTRAS[network]!.problems(extra, shape) : []),
      ];
      const published = files.map((f) => media.publishMedia(f));
      if (process.env.DRIFT_VERBOSE)
        console.log(network, index, Date.now() % 100000, describeShape(shape).replace(/\s+/g, ' '));
      const outcome = await driver.publish({
        ...shape,
        media: published,
        key: `drift-${SEED}-${index}`,
        ...(extra ? { settings: extra.settings, scheduledAt: extra.scheduledAt } : {}),
      });
      media.forget(published);
      if (outcome.accepted) accepted += 1;
      if (outcome.accepted === (problems.length === 0)) continue;
      const found: Disagreement = {
        index,
        rules: problems.length ? problems.join(' | ') : 'accepted',
        network: outcome.accepted ? 'accepted' : outcome.message,
        shape,
        extra,
      };
      disagreements.push(found);
    }
    const report = (list: Disagreement[]) =>
      list
        .map(
          (d) =>
            `#${d.index} rules: ${d.rules}\n   ${network}: ${d.network}\n   shape: ${describeShape(d.shape)}${d.extra ? `\n   with: ${JSON.stringify({ ...d.extra, text: undefined })}` : ''}`,
        )
        .join('\n');
    // Both verdicts occur: a generator whose shapes all pass (or all fail) would prove nothing.
    expect(accepted).toBeGreaterThan(SHAPES / 10);
    expect(accepted).toBeLessThan(SHAPES);
    expect(
      disagreements.length,
      `${network}: ${disagreements.length} of ${SHAPES} shapes judged differently by Herald's rules and the ${network} emulator (DRIFT_SEED=${SEED}):\n${report(disagreements)}`,
    ).toBe(0);
  }, 600_000);
});
