import { TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** Spec §8: the post could not be loaded; Go Back, or Try Again. */
export function PostLoadError({
  message,
  onBack,
  onRetry,
  isRetrying,
}: {
  message: string;
  onBack: () => void;
  onRetry: () => void;
  isRetrying: boolean;
}) {
  return (
    <div
      role="alert"
      className="mx-auto flex max-w-lg flex-col items-center gap-3 rounded-2xl border border-red-200 bg-red-50 p-8 text-center text-red-900"
    >
      <TriangleAlert className="size-8 text-red-600" aria-hidden="true" />
      <h1 className="text-lg font-semibold">Error Loading Post</h1>
      <p className="text-sm">{message}</p>
      <div className="mt-2 flex flex-wrap justify-center gap-3">
        <Button variant="secondary" onClick={onBack}>
          Go Back
        </Button>
        <Button onClick={onRetry} disabled={isRetrying}>
          Try Again
        </Button>
      </div>
    </div>
  );
}
