import { applyLinkTracking, countText, textLimitOf, type LinkTracking } from '@herald/contract';
import { cn } from '@/lib/cn';
import type { ComposePlatform } from '../utils/compose-platforms';

/**
 * "23/280": the text counted the network's way (X weighs links and some characters), as it will
 * be sent (with the post's link tracking, when given). `limit` replaces the post's text rule
 * (a first comment has its network's comment limit).
 */
export function CharacterCount({
  platform,
  text,
  limit = textLimitOf(platform.constraints),
  tracking,
}: {
  platform: ComposePlatform;
  text: string;
  limit?: ReturnType<typeof textLimitOf>;
  tracking?: LinkTracking | null;
}) {
  const used = countText(applyLinkTracking(text, tracking, platform.name), limit?.counting);
  const isOver = limit !== null && used > limit.max;
  return (
    <span
      data-over={isOver || undefined}
      className={cn('tabular-nums', isOver ? 'font-semibold text-red-700' : 'text-slate-600')}
    >
      {limit ? `${used}/${limit.max}` : `${used}`}
      {isOver && <span className="sr-only"> (over the limit)</span>}
    </span>
  );
}

/** One counter per selected network, under the shared text. */
export function CharacterCounts({
  platforms,
  text,
  tracking,
}: {
  platforms: readonly ComposePlatform[];
  text: string;
  tracking?: LinkTracking | null;
}) {
  if (platforms.length === 0) return null;
  return (
    <ul
      aria-label="Characters per platform"
      className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700"
    >
      {platforms.map((platform) => (
        <li key={platform.id} aria-label={`${platform.label} characters`}>
          <span className="font-medium">{platform.label}</span>{' '}
          <CharacterCount platform={platform} text={text} tracking={tracking} />
        </li>
      ))}
    </ul>
  );
}
