import { useMemo } from 'react';
import { generatePath, useParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { ButtonLink } from '@/components/ui/button';
import { LoadError } from '@/components/ui/load-error';
import { LoadingIndicator } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-error';
import { useAuth } from '@/lib/auth';
import { useIntegrations, useSupportedPlatforms } from '@/lib/integrations';
import { useCan } from '@/lib/permissions';
import { usePost } from '@/lib/posts';
import { useTimeZoneRule } from '@/lib/use-time-zone';
import { Composer } from '../components/composer';
import { composePlatforms } from '../utils/compose-platforms';
import { lockedAccountIds } from '../utils/edit-state';
import { LOAD_FAILED } from './create-post';

export const NO_EDIT_PERMISSION =
  'You do not have permission to edit posts. Ask an organization admin for the “Edit Posts” permission.';
export const ALREADY_PUBLISHED = 'This post is already published, so it can no longer be edited.';
export const BEING_PUBLISHED =
  'This post is being published right now and cannot be edited. Try again in a moment.';

/**
 * /content/{postId}/edit (docs/product.md#post-details): the composer with the post loaded —
 * accounts, texts, files and time — saving everything that is not yet out.
 */
export function EditPostPage() {
  const { postId = '' } = useParams();
  const { currentOrgId } = useAuth();
  const canEdit = useCan('PUT /organizations/:orgId/post/:postId');
  const orgId = canEdit ? currentOrgId : null;
  const post = usePost(orgId, postId);
  const integrations = useIntegrations(orgId);
  const supported = useSupportedPlatforms();
  const timeZone = useTimeZoneRule();
  const platforms = useMemo(
    () => composePlatforms(integrations.data ?? [], supported.data ?? []),
    [integrations.data, supported.data],
  );
  const detailsPath = generatePath(paths.postDetails, { postId });

  const body = () => {
    if (!currentOrgId) return <Alert>Select an organization before editing a post.</Alert>;
    if (!canEdit) return <Alert>{NO_EDIT_PERMISSION}</Alert>;
    const failed = post.error ?? integrations.error ?? supported.error;
    if (failed && !post.data) {
      return (
        <LoadError
          title="Error Loading Post"
          message={errorMessage(failed, post.error ? 'Failed to load post details.' : LOAD_FAILED)}
          onRetry={() => {
            void post.refetch();
            void integrations.refetch();
            void supported.refetch();
          }}
          isRetrying={post.isFetching || integrations.isFetching}
        />
      );
    }
    // The post's time is shown in the zone that applies: known before the form starts from it.
    if (!post.data || !integrations.data || !supported.data || !timeZone.settled) {
      return <LoadingIndicator label="Loading the post" className="py-16" />;
    }
    const status = post.data.status;
    if (status === 'published' || status === 'publishing') {
      return (
        <div className="flex flex-col items-start gap-4">
          <Alert>{status === 'published' ? ALREADY_PUBLISHED : BEING_PUBLISHED}</Alert>
          <ButtonLink variant="secondary" to={detailsPath}>
            Back to the post
          </ButtonLink>
        </div>
      );
    }
    return (
      <Composer
        // The form starts from the post once; a refetch (or the saved answer) does not reset it.
        key={post.data.id}
        orgId={currentOrgId}
        platforms={platforms}
        initialScheduleAt=""
        edit={{ post: post.data, lockedIds: lockedAccountIds(post.data) }}
      />
    );
  };

  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-6">
      <title>Edit Post · Herald</title>
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">Edit Post</h1>
        <p className="mt-1 text-slate-600">
          Change the accounts, texts, media and time of everything that is not published yet.
        </p>
      </div>
      {body()}
    </div>
  );
}
