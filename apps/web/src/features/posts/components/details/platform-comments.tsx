import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useComments } from '../../api/comments';
import { CommentItem, unavailableReason, type Unsupported } from './comment-item';

export const commentsLoadFailed = (platformName: string) =>
  `Failed to load comments for ${platformName}.`;

/** One network's comments on the post: read when shown, a page at a time. */
export function PlatformComments({
  id,
  orgId,
  postId,
  platform,
  integrationId = null,
  label = platform.name,
}: {
  /** The element id See Comments controls. */
  id: string;
  orgId: string;
  postId: string;
  platform: { id: string; name: string };
  /** The account whose post's comments these are, where the post went out from several. */
  integrationId?: string | null;
  /** How the list is named: the network, or the account and its network. */
  label?: string;
}) {
  const comments = useComments({ orgId, postId, platformId: platform.id, integrationId }, true);
  const [unsupported, setUnsupported] = useState<Unsupported>({});
  const fallback = commentsLoadFailed(platform.name);

  const render = () => {
    if (comments.isPending) {
      return (
        <LoadingIndicator
          label={`Loading comments for ${platform.name}`}
          className="justify-start py-3"
        />
      );
    }
    if (comments.isError && !comments.data) {
      return (
        <Alert>
          <p>{errorMessage(comments.error, fallback)}</p>
          {/* A network without a comments API says so; trying again would not change that. */}
          {!unavailableReason(comments.error) && (
            <Button
              variant="secondary"
              size="sm"
              className="mt-2"
              disabled={comments.isFetching}
              onClick={() => void comments.refetch()}
            >
              Try Again
            </Button>
          )}
        </Alert>
      );
    }
    const list = comments.data.pages.flatMap((page) => page.comments);
    return (
      <>
        {list.length === 0 ? (
          <p className="py-2 text-sm text-slate-600">No comments yet on {platform.name}.</p>
        ) : (
          <ul aria-label={`Comments on ${label}`} className="divide-y divide-slate-100">
            {list.map((comment) => (
              <CommentItem
                key={comment.id}
                comment={comment}
                orgId={orgId}
                internalPostId={postId}
                platformDbId={platform.id}
                integrationId={integrationId}
                platformName={platform.name}
                unsupported={unsupported}
                onUnsupported={(what, reason) =>
                  setUnsupported((current) => ({ ...current, [what]: reason }))
                }
              />
            ))}
          </ul>
        )}
        {(unsupported.edit || unsupported.delete) && (
          <p className="mt-1 text-xs text-slate-600">
            {[unsupported.edit, unsupported.delete].filter(Boolean).join(' ')}
          </p>
        )}
        {comments.isFetchNextPageError && (
          <Alert className="mt-2">{errorMessage(comments.error, fallback)}</Alert>
        )}
        {comments.hasNextPage && (
          <div className="mt-2 flex justify-center">
            <Button
              variant="secondary"
              size="sm"
              disabled={comments.isFetchingNextPage}
              onClick={() => void comments.fetchNextPage()}
            >
              {comments.isFetchingNextPage && <Spinner className="size-3" />}
              Load more
            </Button>
          </div>
        )}
      </>
    );
  };

  return (
    <div id={id} className="mt-2 rounded-lg bg-slate-50 px-3 py-1">
      {render()}
    </div>
  );
}
