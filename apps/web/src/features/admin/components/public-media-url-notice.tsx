import { TriangleAlert } from 'lucide-react';
import { usePublicMediaUrlFinding } from '../api/platforms';

/**
 * The server's start-up warning about media URLs, for operators: networks that fetch post media
 * from Herald by URL cannot reach a local or plain-http API_PUBLIC_URL. Nothing when all is well
 * (or when the check cannot be read: the page itself still works).
 */
export function PublicMediaUrlNotice() {
  const { data: finding } = usePublicMediaUrlFinding();
  if (!finding) return null;
  return (
    <section
      aria-labelledby="public-media-url-title"
      className="flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
    >
      <TriangleAlert className="mt-0.5 size-5 shrink-0 text-amber-600" aria-hidden="true" />
      <div className="min-w-0 space-y-1">
        <h2 id="public-media-url-title" className="font-semibold">
          {finding.networks.join(', ')} cannot fetch post media from this server
        </h2>
        <p className="break-words">{finding.message}</p>
      </div>
    </section>
  );
}
