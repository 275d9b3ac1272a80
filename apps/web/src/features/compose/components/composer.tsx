import type { PlatformValidationError } from '@herald/contract';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { toast } from '@/lib/toast';
import { useTimeZone } from '@/lib/use-time-zone';
import { classifyCreatePostError, platformList } from '../api/create-post-errors';
import type { PostDraft } from '../api/post-form-data';
import { useCreatePost } from '../api/use-create-post';
import { useComposer } from '../hooks/use-composer';
import type { ComposePlatform } from '../utils/compose-platforms';
import { mediaFor, textFor, uploadedMedia, type ComposeState } from '../utils/compose-state';
import {
  composeIssues,
  hasBlockingIssues,
  hasSubmitProblems,
  NO_PLATFORM_SELECTED,
  postContent,
  submitProblems,
  type ComposeIssues,
} from '../utils/post-checks';
import { formatLocal, localToIso, scheduleProblem } from '../utils/schedule';
import { ComposerDialogs, type ComposeDialog } from './composer-dialogs';
import { ContentEditor, textFieldId } from './content-editor';
import { MEDIA_SECTION_ID, MediaSection } from './media-section';
import { PlatformPicker } from './platform-picker';
import { PostPreviews } from './previews/post-previews';
import { PublishNowDialog } from './publish-now-dialog';
import { ScheduleSection } from './schedule-section';
import { SubmitBar } from './submit-bar';

/** docs/product.md#constants: the media validation toast stays 6 seconds. */
export const MEDIA_VALIDATION_TOAST_MS = 6000;

function blockedReason(selected: readonly ComposePlatform[], issues: ComposeIssues) {
  if (selected.length === 0) return NO_PLATFORM_SELECTED;
  if (Object.keys(issues.textErrors).length > 0) {
    return 'Shorten the text where it is over a platform’s limit.';
  }
  if (issues.mediaErrors.length > 0 || issues.tooManyFiles) {
    return 'Fix the media problems listed in the Media section.';
  }
  if (issues.scheduleError) return 'Fix the publish time in the Schedule section.';
  return null;
}

function draftOf(
  state: ComposeState,
  selected: readonly ComposePlatform[],
  zone: string,
): PostDraft {
  return {
    integrationIds: selected.map((p) => p.id),
    content: postContent(state, selected),
    action: state.action,
    scheduledAt:
      state.action === 'schedule' ? (localToIso(state.scheduleAt, zone) ?? undefined) : undefined,
    title: state.title,
    sharedFiles: state.sharedMedia.map((item) => item.file),
    platformFiles: Object.fromEntries(
      selected.map((p) => [p.id, (state.platformMedia[p.id] ?? []).map((item) => item.file)]),
    ),
  };
}

function successMessage(state: ComposeState, zone: string): string {
  if (state.action === 'draft') return 'Draft saved.';
  if (state.action === 'schedule')
    return `Post scheduled for ${formatLocal(state.scheduleAt)} (${zone}).`;
  return 'Post created. Publishing has started.';
}

/** Moves to the media section once the closing dialog has handed focus back. */
function focusMediaSection() {
  setTimeout(() =>
    setTimeout(() => {
      const section = document.getElementById(MEDIA_SECTION_ID);
      section?.scrollIntoView?.({ behavior: 'smooth', block: 'start' });
      section?.focus();
    }),
  );
}

interface ComposerProps {
  orgId: string;
  platforms: readonly ComposePlatform[];
  initialScheduleAt: string;
}

/** The Create Social Post form: one request for every selected platform (docs/product.md#create-post, #composer-states, #posts-validation). */
export function Composer({ orgId, platforms, initialScheduleAt }: ComposerProps) {
  const navigate = useNavigate();
  const { state, dispatch, selected, addMedia, removeMedia, reset, readingFor } = useComposer(
    platforms,
    initialScheduleAt,
  );
  const createPost = useCreatePost(orgId);
  const zone = useTimeZone();
  const [progress, setProgress] = useState(0);
  const [hasAttempted, setHasAttempted] = useState(false);
  const [dialog, setDialog] = useState<ComposeDialog | null>(null);
  const [serverMediaErrors, setServerMediaErrors] = useState<PlatformValidationError[]>([]);
  const [confirmingPublish, setConfirmingPublish] = useState(false);

  const isSubmitting = createPost.isPending;
  const issues = composeIssues(state, selected, zone);
  const problems = hasAttempted ? submitProblems(state, selected) : { content: {}, empty: null };
  const canSubmit = selected.length > 0 && !isSubmitting && !hasBlockingIssues(issues);

  const showMediaRefusal = (errors: PlatformValidationError[]) => {
    setServerMediaErrors(errors);
    setDialog({ kind: 'mediaErrors' });
    toast.error(
      (t) => (
        <button
          type="button"
          className="text-left"
          onClick={() => {
            toast.dismiss(t.id);
            setDialog({ kind: 'mediaErrors' });
          }}
        >
          {`Media validation failed for ${platformList(errors)}. Click to view details.`}
        </button>
      ),
      { id: 'media-validation', duration: MEDIA_VALIDATION_TOAST_MS },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!canSubmit) return;
    setHasAttempted(true);
    const found = submitProblems(state, selected);
    if (hasSubmitProblems(found)) {
      const first = selected.find((p) => found.content[p.id]);
      document.getElementById(textFieldId(first ? first.id : null))?.focus();
      return;
    }
    // The page may have sat open past the chosen time; the render then shows why.
    if (state.action === 'schedule' && scheduleProblem(state.scheduleAt, zone)) return;
    // Sending right away cannot be taken back: the member first sees every account it goes to.
    if (state.action === 'publish') {
      setConfirmingPublish(true);
      return;
    }
    send();
  };

  const send = () => {
    setConfirmingPublish(false);
    setProgress(0);
    createPost.mutate(
      { draft: draftOf(state, selected, zone), onProgress: setProgress },
      {
        onSuccess: () => {
          toast.success(successMessage(state, zone));
          reset();
          setHasAttempted(false);
          void navigate(paths.content);
        },
        onError: (error) => {
          const failure = classifyCreatePostError(error);
          if (failure.kind === 'media') showMediaRefusal(failure.errors);
          else if (failure.kind === 'toast') toast.error(failure.message);
          else setDialog(failure);
        },
      },
    );
  };

  return (
    <>
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label="Create Social Post"
        className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]"
      >
        <div className="flex min-w-0 flex-col gap-6">
          <PlatformPicker
            platforms={platforms}
            selectedIds={state.platformIds}
            onToggle={(platformId) => dispatch({ type: 'togglePlatform', platformId })}
            disabled={isSubmitting}
          />
          <ContentEditor
            mode={state.mode}
            onModeChange={(mode) => dispatch({ type: 'setMode', mode })}
            title={state.title}
            onTitleChange={(title) => dispatch({ type: 'setTitle', title })}
            sharedText={state.sharedText}
            onSharedTextChange={(text) => dispatch({ type: 'setSharedText', text })}
            customTexts={state.customTexts}
            onCustomTextChange={(platformId, text) =>
              dispatch({ type: 'setCustomText', platformId, text })
            }
            selected={selected}
            textErrors={issues.textErrors}
            submitErrors={{
              ...problems.content,
              ...(problems.empty ? { shared: problems.empty } : {}),
            }}
            disabled={isSubmitting}
          />
          <MediaSection
            selected={selected}
            sharedMedia={state.sharedMedia}
            platformMedia={state.platformMedia}
            uploadedCount={uploadedMedia(state).length}
            onAdd={(platformId, files) => void addMedia(platformId, files)}
            onRemove={removeMedia}
            onViewRequirements={(list) =>
              setDialog({ kind: 'requirements', platforms: list, back: false })
            }
            readingFor={readingFor}
            mediaErrors={issues.mediaErrors}
            tooManyFiles={issues.tooManyFiles}
            disabled={isSubmitting}
          />
          <ScheduleSection
            action={state.action}
            onActionChange={(action) => dispatch({ type: 'setAction', action })}
            scheduleAt={state.scheduleAt}
            onScheduleAtChange={(value) => dispatch({ type: 'setScheduleAt', value })}
            error={issues.scheduleError}
            zone={zone}
            disabled={isSubmitting}
          />
          <SubmitBar
            canSubmit={canSubmit}
            isSubmitting={isSubmitting}
            progress={progress}
            blockedReason={blockedReason(selected, issues)}
          />
        </div>
        <aside className="min-w-0 lg:sticky lg:top-4">
          <PostPreviews
            platforms={selected}
            textFor={(platformId) => textFor(state, platformId)}
            mediaFor={(platformId) => mediaFor(state, platformId)}
          />
        </aside>
      </form>
      <ComposerDialogs
        dialog={dialog}
        onChange={setDialog}
        mediaErrors={serverMediaErrors}
        platforms={platforms}
        onGoToMedia={focusMediaSection}
      />
      <PublishNowDialog
        open={confirmingPublish}
        onOpenChange={setConfirmingPublish}
        platforms={selected}
        onConfirm={send}
      />
    </>
  );
}
