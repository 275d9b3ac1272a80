import { TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';
import { Button } from './button';

/**
 * A list or page that could not load, with the way to try again (docs/product.md#messages: the server's sentence
 * when it has one). Without `title` it is a one-line strip above a table ("Try again"); with a
 * title it is the panel that replaces a whole list or page ("Try Again"), optionally with another
 * way out (e.g. Go Back) before the retry.
 */
export function LoadError({
  message,
  onRetry,
  isRetrying = false,
  title,
  titleAs: Title = 'p',
  otherAction,
  className,
}: {
  message: string;
  onRetry: () => void;
  isRetrying?: boolean;
  title?: string;
  /** The panel's title is the page's heading when the error is all the page shows. */
  titleAs?: 'p' | 'h1' | 'h2';
  otherAction?: ReactNode;
  className?: string;
}) {
  if (!title) {
    return (
      <div
        role="alert"
        className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800"
      >
        <span>{message}</span>
        <Button variant="secondary" size="sm" onClick={onRetry} disabled={isRetrying}>
          Try again
        </Button>
      </div>
    );
  }
  return (
    <div
      role="alert"
      className={cn(
        'flex flex-col items-center gap-3 rounded-2xl border border-red-200 bg-red-50 p-8 text-center text-red-900',
        className,
      )}
    >
      <TriangleAlert className="size-8 text-red-600" aria-hidden="true" />
      <Title className="text-lg font-semibold">{title}</Title>
      <p className="text-sm">{message}</p>
      <div className="mt-2 flex flex-wrap justify-center gap-3">
        {otherAction}
        <Button
          variant={otherAction ? 'primary' : 'secondary'}
          onClick={onRetry}
          disabled={isRetrying}
        >
          Try Again
        </Button>
      </div>
    </div>
  );
}
