import { GUEST_COMMENT_MAX, type GuestDecision } from '@herald/contract';
import { Check, MessageSquareWarning } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage, isApiError } from '@/lib/api-error';
import { goneState, useGuestDecision } from '../api/guest-approval';

export const COMMENT_NEEDED = 'Say what should change, so the team knows what to do.';
export const DECISION_FAILED = 'Your decision could not be sent. Try again.';

/** The approve answer when the post's time has passed: ask, then approve with publishNow. */
function isTimePassed(error: unknown): boolean {
  return (
    isApiError(error) &&
    error.status === 409 &&
    (error.details as { timePassed?: unknown } | undefined)?.timePassed === true
  );
}

/**
 * Approve, or ask for changes with a comment (docs/product.md#client-approval-links). A post
 * whose time has passed asks before approving publishes it at once. `onGone` runs when the link
 * stopped working meanwhile (withdrawn or expired), so the page can say so.
 */
export function DecisionForm({
  token,
  postId,
  label,
  onGone,
}: {
  token: string;
  postId: string;
  label: string;
  onGone: () => void;
}) {
  const decide = useGuestDecision(token);
  const [comment, setComment] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [askPublishNow, setAskPublishNow] = useState(false);
  const fieldId = useId();

  const send = (decision: GuestDecision, publishNow = false) => {
    setProblem(null);
    if (decision === 'request_changes' && !comment.trim()) {
      setProblem(COMMENT_NEEDED);
      return;
    }
    decide.mutate(
      { postId, decision, comment, publishNow },
      {
        onError: (error) => {
          if (isTimePassed(error)) {
            setAskPublishNow(true);
            return;
          }
          if (goneState(error)) {
            onGone();
            return;
          }
          setProblem(errorMessage(error, DECISION_FAILED));
        },
      },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    send('approve');
  };

  const busy = decide.isPending;
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label={`Your decision on ${label}`}
      className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-slate-50 p-4"
    >
      <div>
        <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800">
          Comment for the team
        </label>
        <textarea
          id={fieldId}
          value={comment}
          onChange={(event) => setComment(event.target.value)}
          maxLength={GUEST_COMMENT_MAX}
          rows={3}
          aria-describedby={`${fieldId}-hint`}
          className="mt-1 block w-full rounded-lg border border-slate-300 bg-white p-2 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200"
        />
        <p id={`${fieldId}-hint`} className="mt-1 text-xs text-slate-600">
          Optional when you approve; needed when you ask for changes.
        </p>
      </div>
      {problem && <Alert>{problem}</Alert>}
      {askPublishNow ? (
        <div
          role="alertdialog"
          aria-label="Publish it now?"
          className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
        >
          <p>This post’s time has passed. Approving it now publishes it right away.</p>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => send('approve', true)} disabled={busy}>
              {busy ? (
                <Spinner className="size-4 text-white" />
              ) : (
                <Check className="size-4" aria-hidden="true" />
              )}
              Approve and publish now
            </Button>
            <Button variant="secondary" onClick={() => setAskPublishNow(false)} disabled={busy}>
              Cancel
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
          <Button
            variant="secondary"
            size="lg"
            onClick={() => send('request_changes')}
            disabled={busy}
            className="sm:order-1"
          >
            <MessageSquareWarning className="size-5" aria-hidden="true" />
            Request changes
          </Button>
          <Button type="submit" size="lg" disabled={busy} className="sm:order-2">
            {busy ? (
              <Spinner className="size-5 text-white" />
            ) : (
              <Check className="size-5" aria-hidden="true" />
            )}
            Approve
          </Button>
        </div>
      )}
    </form>
  );
}
