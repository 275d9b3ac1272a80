import { defaultContent, type Post } from '@herald/contract';
import { lazy, Suspense, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LoadError } from '@/components/ui/load-error';
import { LoadingIndicator } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-error';
import { useAuth } from '@/lib/auth';
import { useIntegrations } from '@/lib/integrations';
import { useCan } from '@/lib/permissions';
import { useDeletePost, usePost } from '@/lib/posts';
import { toast, toastError } from '@/lib/toast';
import { CommentsSection } from '../components/details/comments-section';
import { ContentPanel } from '../components/details/content-panel';
import { DetailsHeader } from '../components/details/details-header';
import { DetailsPanel } from '../components/details/details-panel';
import { EmbedPreview } from '../components/details/embed-preview';
import { MediaCarousel } from '../components/details/media-carousel';
import { PublishPanel } from '../components/details/publish-panel';
import { isEditable } from '../components/post-status';
import { DuplicatePostButton } from '../components/duplicate-button';
import { InternalComments } from '../components/details/internal-comments';
import { ClientApprovalPanel } from '../components/approval-links/client-approval-panel';

// Its own chunk: only members with analytics:view on a post that went out need it.
const PerformanceCard = lazy(async () => ({
  default: (await import('../components/details/performance-card')).PerformanceCard,
}));

export const LOAD_POST_FAILED = 'Failed to load post details.';
export const DELETE_FAILED = 'Failed to delete post.';

/** Back where the reader came from, or to the library when the post was opened directly. */
function useGoBack() {
  const navigate = useNavigate();
  const location = useLocation();
  return () => {
    if (location.key === 'default') void navigate(paths.content);
    else void navigate(-1);
  };
}

function PostDetailsBody({ orgId, post }: { orgId: string; post: Post }) {
  const navigate = useNavigate();
  const goBack = useGoBack();
  const integrations = useIntegrations(orgId);
  const remove = useDeletePost(orgId);
  const mayEdit = useCan('PUT /organizations/:orgId/post/:postId');
  const mayDelete = useCan('DELETE /organizations/:orgId/posts/:postId');
  const mayViewMetrics = useCan('GET /organizations/:orgId/posts/:postId/metrics');
  const isOut = post.platformPosts.some((target) => target.status === 'PUBLISHED');
  const [isConfirmingDelete, setConfirmingDelete] = useState(false);
  const text = defaultContent(post.content);

  const confirmDelete = () => {
    remove.mutate(post.id, {
      onSuccess: (notice) => {
        // What stays at a network (a video uploaded ahead from an account disconnected since).
        if (notice) toast.success(`Post deleted. ${notice}`, { duration: 15_000 });
        else toast.success('Post deleted.');
        void navigate(paths.content, { replace: true });
      },
      onError: (error) => {
        setConfirmingDelete(false);
        toastError(error, DELETE_FAILED);
      },
    });
  };

  return (
    <>
      <DetailsHeader
        postId={post.id}
        title={post.title}
        status={post.status}
        // Being published right now: the server refuses edits until it is done.
        canEdit={mayEdit && isEditable(post.status)}
        canDelete={mayDelete}
        onDelete={() => setConfirmingDelete(true)}
        extraActions={<DuplicatePostButton post={post} look="button" />}
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="flex flex-col gap-6">
          <ContentPanel post={post} text={text} />
          <MediaCarousel media={post.media} />
          {mayViewMetrics && isOut && (
            <Suspense fallback={null}>
              <PerformanceCard orgId={orgId} postId={post.id} />
            </Suspense>
          )}
          <EmbedPreview orgId={orgId} post={post} />
          <CommentsSection orgId={orgId} post={post} />
          <InternalComments orgId={orgId} post={post} />
        </div>
        <div className="flex flex-col gap-6">
          <DetailsPanel post={post} />
          <ClientApprovalPanel orgId={orgId} post={post} />
          <PublishPanel
            orgId={orgId}
            post={post}
            integrations={integrations.data}
            onClose={goBack}
          />
        </div>
      </div>
      <ConfirmDialog
        open={isConfirmingDelete}
        onOpenChange={setConfirmingDelete}
        title="Delete this post?"
        message="The post and its files are removed from Herald. Anything already published stays on the networks."
        confirmLabel="Delete Post"
        onConfirm={confirmDelete}
        isPending={remove.isPending}
      />
    </>
  );
}

/** /content/{postId} (docs/product.md#post-details). */
export function PostDetailsPage() {
  const { postId } = useParams();
  const { currentOrgId } = useAuth();
  const post = usePost(currentOrgId, postId);
  const goBack = useGoBack();

  const render = () => {
    if (post.isPending) return <LoadingIndicator label="Loading the post" className="py-16" />;
    // A failed refetch (after a delete, say) keeps showing the post it had.
    if (post.isError && !post.data) {
      return (
        <LoadError
          title="Error Loading Post"
          titleAs="h1"
          className="mx-auto max-w-lg"
          message={errorMessage(post.error, LOAD_POST_FAILED)}
          otherAction={
            <Button variant="secondary" onClick={goBack}>
              Go Back
            </Button>
          }
          onRetry={() => void post.refetch()}
          isRetrying={post.isFetching}
        />
      );
    }
    return <PostDetailsBody key={post.data.id} orgId={currentOrgId ?? ''} post={post.data} />;
  };

  return (
    <div className="mx-auto flex max-w-6xl flex-col gap-6">
      <title>Post Details · Herald</title>
      {render()}
    </div>
  );
}
