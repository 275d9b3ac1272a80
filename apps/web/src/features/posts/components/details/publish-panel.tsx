import type { Integration, Post } from '@herald/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { connectUrl } from '@/lib/integrations';
import { useCan } from '@/lib/permissions';
import { postKeys } from '@/lib/posts';
import { toast, toastError } from '@/lib/toast';
import { usePublishNow, useRefreshWhilePublishing, useResolveTarget } from '../../api/publishing';
import { isPublished } from '../post-status';
import { PublishRowItem } from './publish-row';
import {
  NO_PLATFORMS_CONNECTED,
  NO_SELECTION,
  outcomesOf,
  PUBLISH_REQUEST_FAILED,
  publishRows,
  publishToasts,
  type PublishOutcome,
} from './publish-rows';

export { NO_PLATFORMS_CONNECTED, NO_SELECTION } from './publish-rows';
export const RESOLVE_FAILED = 'Failed to update this publication.';
export const MAY_NOT_PUBLISH = 'Only members who may create posts can publish them.';

/**
 * The last Publish Now answer, for the post it was given against: once the post is read again
 * (a new object from the cache), the post's own record takes over.
 */
interface Answered {
  basis: unknown;
  outcomes: Record<string, PublishOutcome>;
}

/**
 * docs/product.md#publish-panel, #publish-states Publish to Platform: a row per network of the post, with a checkbox to choose it,
 * where it stands, Connect for a network without an account, and Mark as published / Retry for a
 * publication nobody can confirm. Publish Now publishes the chosen networks and says how it went.
 */
export function PublishPanel({
  orgId,
  post,
  integrations,
  onClose,
}: {
  orgId: string;
  post: Post;
  /** The organization's accounts; undefined while unknown. */
  integrations: Integration[] | undefined;
  onClose: () => void;
}) {
  const headingId = useId();
  const queryClient = useQueryClient();
  const mayPublish = useCan('PATCH /organizations/:orgId/post/:postId/publish');
  const mayResolve = useCan('POST /organizations/:orgId/posts/:postId/targets/:targetId/resolve');
  const mayConnect = useCan('GET /auth/:platform');
  const publish = usePublishNow(orgId, post.id);
  const resolve = useResolveTarget(orgId, post.id);
  const [selected, setSelected] = useState<string[]>([]);
  const [answered, setAnswered] = useState<Answered | null>(null);

  const published = isPublished(post.status);
  const connected = integrations?.filter((i) => i.status === 'CONNECTED');
  const rows = publishRows({
    post,
    connectedPlatformIds: connected ? new Set(connected.map((i) => i.platform.id)) : null,
    inFlight: publish.isPending ? (publish.variables ?? []) : [],
    outcomes: answered?.basis === post ? answered.outcomes : {},
  });
  // docs/product.md#approvals: a post waiting for approval goes out only by being approved.
  const canPublish = !published && mayPublish && post.status !== 'pending_approval';
  const noneConnected = connected?.length === 0;
  const chosen = rows
    .filter((row) => row.selectable && selected.includes(row.label))
    .map((row) => row.label);

  useRefreshWhilePublishing(
    orgId,
    post.id,
    !publish.isPending && rows.some((row) => row.state.kind === 'publishing'),
  );

  const toggle = (name: string, checked: boolean) =>
    setSelected((current) =>
      checked ? [...current.filter((n) => n !== name), name] : current.filter((n) => n !== name),
    );

  const remember = (outcomes: Record<string, PublishOutcome>) =>
    setAnswered({
      basis: queryClient.getQueryData(postKeys.detail(orgId, post.id)),
      outcomes,
    });

  const publishNow = () => {
    if (chosen.length === 0) {
      toast.error(NO_SELECTION, { id: 'publish-no-selection' });
      return;
    }
    const names = chosen;
    publish.mutate(names, {
      onSuccess: (answer) => {
        const outcomes = outcomesOf(answer, names);
        remember(outcomes);
        // What went out (or is still going) is done choosing; a failure stays chosen to retry.
        setSelected((current) =>
          current.filter((name) => !names.includes(name) || outcomes[name]?.status === 'failed'),
        );
        for (const { tone, message } of publishToasts(answer)) {
          if (tone === 'success') toast.success(message);
          else if (tone === 'error') toast.error(message);
          else toast(message);
        }
      },
      onError: (error) => {
        const message = errorMessage(error, PUBLISH_REQUEST_FAILED);
        remember(
          Object.fromEntries(names.map((name) => [name, { status: 'failed', error: message }])),
        );
        toast.error(message);
      },
    });
  };

  const onResolve = (targetId: string, outcome: 'published' | 'retry') => {
    const name = rows.find((row) => row.id === targetId)?.label ?? 'the network';
    resolve.mutate(
      { targetId, outcome },
      {
        onSuccess: () =>
          toast.success(
            outcome === 'published'
              ? `Marked as published on ${name}.`
              : `Publishing to ${name} again.`,
          ),
        onError: (error) => toastError(error, RESOLVE_FAILED),
      },
    );
  };

  const names = rows.map((row) => row.label);

  return (
    <section
      aria-labelledby={headingId}
      aria-busy={publish.isPending}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Publish to Platform
      </h2>
      {published ? (
        <p className="mt-2 text-sm text-slate-700">
          This post was published to {names.length > 0 ? names.join(', ') : 'its platforms'}.
        </p>
      ) : noneConnected ? (
        <p className="mt-2 text-sm text-amber-800">{NO_PLATFORMS_CONNECTED}</p>
      ) : (
        canPublish && (
          <p className="mt-2 text-sm text-slate-600">Choose the platforms to publish to now.</p>
        )
      )}
      {!published && !mayPublish && (
        <p className="mt-2 text-sm text-slate-600">{MAY_NOT_PUBLISH}</p>
      )}
      <ul aria-label="Platforms of this post" className="mt-3 divide-y divide-slate-100">
        {rows.map((row) => (
          <PublishRowItem
            key={row.id}
            row={row}
            showCheckbox={canPublish}
            checked={selected.includes(row.label)}
            onCheckedChange={(checked) => toggle(row.label, checked)}
            connectHref={mayConnect && orgId ? connectUrl(row.platform.name, orgId) : null}
            mayResolve={mayResolve}
            retryFailed={published}
            resolvingTargetId={resolve.isPending ? (resolve.variables?.targetId ?? null) : null}
            onResolve={onResolve}
            orgId={orgId}
            postId={post.id}
          />
        ))}
      </ul>
      <p aria-live="polite" className="mt-2 text-xs text-slate-600">
        {publish.isPending &&
          'Publishing can take up to a minute and a half while the networks answer.'}
      </p>
      <div className="mt-4 flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
        {canPublish && (
          <Button onClick={publishNow} disabled={publish.isPending || noneConnected}>
            {publish.isPending ? (
              <Spinner className="size-4 text-white" />
            ) : (
              <Send className="size-4" aria-hidden="true" />
            )}
            Publish Now
          </Button>
        )}
      </div>
    </section>
  );
}
