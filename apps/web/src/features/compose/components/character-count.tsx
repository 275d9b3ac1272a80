import { countText, textLimitOf } from '@herald/contract';
import { cn } from '@/lib/cn';
import type { ComposePlatform } from '../utils/compose-platforms';

/** "23/280": the text counted the network's way (X weighs links and some characters). */
export function CharacterCount({ platform, text }: { platform: ComposePlatform; text: string }) {
  const limit = textLimitOf(platform.constraints);
  const used = countText(text, limit?.counting);
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
}: {
  platforms: readonly ComposePlatform[];
  text: string;
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
          <CharacterCount platform={platform} text={text} />
        </li>
      ))}
    </ul>
  );
}
