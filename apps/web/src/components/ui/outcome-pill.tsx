import { ExternalLink } from 'lucide-react';
import { cn } from '@/lib/cn';

/** The rounded label of a publication's state, in the composer's progress and the details page. */
export const pill =
  'inline-flex items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-semibold';

/** "Published" (or TikTok's inbox), with the link to the post on its network when there is one. */
export function PublishedPill({
  network,
  permalink,
  inbox,
}: {
  network: string;
  permalink: string | null | undefined;
  inbox: boolean | undefined;
}) {
  return (
    <span className="flex flex-wrap items-center justify-end gap-2">
      <span className={cn(pill, 'bg-emerald-100 text-emerald-800')}>
        {inbox ? 'Sent to TikTok inbox' : 'Published'}
      </span>
      {permalink && !inbox && (
        <a
          href={permalink}
          target="_blank"
          rel="noreferrer"
          className="inline-flex items-center gap-1 text-xs font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          View on {network}
          <ExternalLink className="size-3" aria-hidden="true" />
        </a>
      )}
    </span>
  );
}
