import {
  applyLinkTracking,
  DEFAULT_LINK_TRACKING,
  type CreatePostAction,
  type FollowUpsByAccount,
  type PlatformValidationError,
  type GbpPostSettings,
  type MastodonPostSettings,
  type TikTokPostSettings,
  type YouTubePostSettings,
  type PinterestPostSettings,
} from '@herald/contract';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import type { ComposerDraftBody } from '@herald/contract';
import { Eye, EyeOff } from 'lucide-react';
import { cn } from '@/lib/cn';
import { useLinkTrackingSettings } from '@/lib/post-extras';
import { generatePath, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { useOrganization } from '@/lib/organization';
import { useAuth } from '@/lib/auth';
import { holdPostNotifications } from '@/lib/notifications';
import { usePermissions } from '@/lib/permissions';
import { toast } from '@/lib/toast';
import { useTimeZoneRule } from '@/lib/use-time-zone';
import { classifyCreatePostError, platformList } from '../api/create-post-errors';
import type { NewFile, PostDraft } from '../api/post-form-data';
import { useCreatePost, useEditPost } from '../api/use-create-post';
import { useComposer } from '../hooks/use-composer';
import { useAutosave } from '../hooks/use-autosave';
import { useLeaveGuard } from '../hooks/use-leave-guard';
import { draftBodyOf, hasChanges, restoreDraft } from '../utils/composer-draft';
import { AutosaveNote } from './autosave-note';
import { BestTimeHint } from './best-time-hint';
import type { ComposePlatform } from '../utils/compose-platforms';
import { lockedLabels, stateFromPost, type EditContext } from '../utils/edit-state';
import { mediaFor, textFor, uploadedMedia, type ComposeState } from '../utils/compose-state';
import type { MediaItem } from '../utils/media-files';
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
import { LinkTrackingSection } from './link-tracking-section';
import { ShortLinksToggle } from './short-links-toggle';
import { MEDIA_SECTION_ID, MediaSection } from './media-section';
import { PlatformPicker } from './platform-picker';
import { PostPreviews } from './post-previews';
import { PublishNowDialog } from './publish-now-dialog';
import { PublishProgress } from './publish-progress';
import { ScheduleSection } from './schedule-section';
import { RepeatSection, useRepeatOption } from './repeat-section';
import { SubmitBar } from './submit-bar';
import { AddToQueueButton, queuedMessage } from './add-to-queue-button';
import { MASTODON_SECTION_ID, MastodonSection, useMastodonSettings } from './mastodon-section';
import { GBP_SECTION_ID, GbpSection, useGbpSettings } from './gbp-section';
import { TIKTOK_SECTION_ID, TikTokSection } from './tiktok-section';
import { BlueskyVideoNote } from './bluesky-video-note';
import { FollowUpsPreview, FollowUpsSection } from './follow-ups-section';
import { useFollowUps } from './use-follow-ups';
import { useTikTokSettings } from './use-tiktok-settings';
import { YOUTUBE_SECTION_ID, YouTubeSection, useYouTubeSettings } from './youtube-section';
import { PINTEREST_SECTION_ID, PinterestSection, usePinterestSettings } from './pinterest-section';
import { XCostNote } from './x-cost-note';

/** docs/product.md#constants: the media validation toast stays 6 seconds. */
export const MEDIA_VALIDATION_TOAST_MS = 6000;

function blockedReason(
  selected: readonly ComposePlatform[],
  issues: ComposeIssues,
  followUpIssues: Record<string, string[]>,
) {
  if (selected.length === 0) return NO_PLATFORM_SELECTED;
  if (Object.keys(followUpIssues).length > 0) {
    return 'Fix the parts or first comments listed under Thread and first comment.';
  }
  if (Object.keys(issues.textErrors).length > 0) {
    return 'Change the text where a network would refuse it, as said under its account.';
  }
  if (issues.mediaErrors.length > 0 || issues.tooManyFiles) {
    return 'Fix the media problems listed in the Media section.';
  }
  if (issues.scheduleError) return 'Fix the publish time in the Schedule section.';
  return null;
}

/** Files chosen in this browser, and files taken from the media library (sent by id). */
const newFiles = (items: readonly MediaItem[]): NewFile[] =>
  items.flatMap((i): NewFile[] => (i.file ? [i.file] : i.library ? [i.library] : []));
const storedIds = (items: readonly MediaItem[]) =>
  items.flatMap((i) => (i.storedId ? [i.storedId] : []));
/** docs/product.md#alt-text: each file's alt text by its File or library pick (new) or stored id (kept). */
const altTextsOf = (state: ComposeState) =>
  new Map<NewFile | string, string>(
    [...state.sharedMedia, ...Object.values(state.platformMedia).flat()].flatMap((item) => {
      const key = item.file ?? item.library ?? item.storedId;
      return key && item.altText?.trim() ? [[key, item.altText] as const] : [];
    }),
  );

/**
 * What is sent: the editable accounts' texts and files. When editing, the accounts that can no
 * longer change are named too (the server keeps them as they went out) and stored files by id.
 */
function draftOf(
  state: ComposeState,
  editable: readonly ComposePlatform[],
  zone: string,
  edit: EditContext | undefined,
  tiktok: Record<string, TikTokPostSettings>,
  followUps: FollowUpsByAccount,
  mastodon: Record<string, MastodonPostSettings>,
  youtube: Record<string, YouTubePostSettings> = {},
  googleBusiness: Record<string, GbpPostSettings> = {},
  pinterest: Record<string, PinterestPostSettings> = {},
): PostDraft {
  return {
    tiktok,
    mastodon,
    youtube,
    googleBusiness,
    pinterest,
    followUps,
    integrationIds: [...editable.map((p) => p.id), ...(edit?.lockedIds ?? [])],
    content: postContent(state, editable),
    action: state.action,
    scheduledAt:
      state.action === 'schedule' ? (localToIso(state.scheduleAt, zone) ?? undefined) : undefined,
    title: state.title,
    altTexts: altTextsOf(state),
    // Editing always says it (null turns tracking off); a new post only when it tracks.
    ...(edit || state.linkTracking ? { linkTracking: state.linkTracking ?? null } : {}),
    ...(state.shortLinks !== undefined ? { shortLinks: state.shortLinks } : {}),
    sharedFiles: newFiles(state.sharedMedia),
    platformFiles: Object.fromEntries(
      editable.map((p) => [p.id, newFiles(state.platformMedia[p.id] ?? [])]),
    ),
    ...(edit
      ? {
          keep: {
            shared: storedIds(state.sharedMedia),
            platform: Object.fromEntries(
              editable.map((p) => [p.id, storedIds(state.platformMedia[p.id] ?? [])]),
            ),
          },
        }
      : {}),
  };
}

/** docs/product.md#approvals: what a member who must submit reads once it is sent. */
export const SUBMITTED_FOR_APPROVAL = 'Submitted for approval. An approver will review it.';
export const SUBMIT_FOR_APPROVAL = 'Submit for approval';
/** An approver saving a waiting post with its time approves it. */
export const SAVE_AND_APPROVE = 'Save and approve';

/**
 * docs/product.md#create-post: the main button says what pressing it does — the chosen action,
 * or a submission where approval is required; editing saves.
 */
export const MAIN_BUTTON_LABELS: Record<CreatePostAction, string> = {
  draft: 'Save draft',
  schedule: 'Schedule',
  publish: 'Publish now',
};
export const SAVE_CHANGES = 'Save Changes';

function mainButtonLabel(
  action: CreatePostAction,
  { isEdit, submits, approves }: { isEdit: boolean; submits: boolean; approves: boolean },
): string {
  if (approves) return SAVE_AND_APPROVE;
  if (submits) return SUBMIT_FOR_APPROVAL;
  return isEdit ? SAVE_CHANGES : MAIN_BUTTON_LABELS[action];
}

/** docs/product.md#messages: the details page's success sentence for a saved edit. */
export const UPDATE_SUCCEEDED = 'Post updated successfully!';

function successMessage(state: ComposeState, zone: string, isEdit: boolean): string {
  if (isEdit) return UPDATE_SUCCEEDED;
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
  /** Editing a stored post: the form starts from it, and Save Changes sends the edit. */
  edit?: EditContext;
}

/** The Create Social Post form: one request for every selected platform (docs/product.md#create-post, #composer-states, #posts-validation). */
export function Composer({ orgId, platforms, initialScheduleAt, edit }: ComposerProps) {
  const navigate = useNavigate();
  const { zone, source: zoneSource } = useTimeZoneRule();
  const lockedIds = edit?.lockedIds ?? [];
  const { state, dispatch, selected, addMedia, removeMedia, reset, readingFor } = useComposer(
    platforms,
    initialScheduleAt,
    edit && {
      initial: () => ({
        ...stateFromPost(edit.post, platforms, edit.lockedIds, zone),
        linkTracking: edit.post.linkTracking ?? null,
        ...(typeof edit.post.shortLinks === 'boolean' ? { shortLinks: edit.post.shortLinks } : {}),
      }),
      lockedIds: edit.lockedIds,
    },
  );
  // docs/product.md#composer-autosave: the form as it started; any difference is unsent work.
  const [baseline, setBaseline] = useState(state);
  const dirty = hasChanges(state, baseline);
  const leaveGuard = useLeaveGuard(dirty);
  const restore = useCallback(
    (body: ComposerDraftBody) =>
      dispatch({
        type: 'reset',
        state: restoreDraft(
          baseline,
          body,
          platforms.map((p) => p.id),
          edit?.lockedIds,
        ),
      }),
    [baseline, dispatch, platforms, edit],
  );
  const autosave = useAutosave({
    orgId,
    postId: edit?.post.id ?? null,
    body: draftBodyOf(state),
    dirty,
    onRestore: restore,
  });
  // The accounts this submit changes; locked ones stay ticked in the picker but are left as they are.
  const editable = selected.filter((p) => !lockedIds.includes(p.id));
  const createPost = useCreatePost(orgId);
  const editPost = useEditPost(orgId, edit?.post.id ?? '');
  const mutation = edit ? editPost : createPost;
  const [progress, setProgress] = useState(0);
  const [hasAttempted, setHasAttempted] = useState(false);
  const [dialog, setDialog] = useState<ComposeDialog | null>(null);
  const [serverMediaErrors, setServerMediaErrors] = useState<PlatformValidationError[]>([]);
  const [confirmingPublish, setConfirmingPublish] = useState(false);
  const [previewOpen, setPreviewOpen] = useState(false);
  // docs/product.md#publish-now-progress: the post just published now, followed account by account.
  const [publishedNow, setPublishedNow] = useState<string | null>(null);
  const tiktok = useTikTokSettings(orgId, state, editable, edit?.post);
  const mastodon = useMastodonSettings(state, dispatch, editable);
  const googleBusiness = useGbpSettings(state, dispatch, editable);
  const youtube = useYouTubeSettings(state, editable, edit?.post);
  const pinterest = usePinterestSettings(editable, edit?.post);
  const followUps = useFollowUps(editable, edit?.post);
  const repeat = useRepeatOption(orgId, edit?.post.id ?? null, zone);
  const followUpIssues = followUps.issues();
  // docs/product.md#link-tracking: a new post starts from the organization's default.
  const trackingDefaults = useLinkTrackingSettings(orgId);
  const defaults = trackingDefaults.data;
  useEffect(() => {
    if (edit || state.linkTracking !== undefined || !defaults) return;
    const value = defaults.enabledByDefault ? defaults.tracking : null;
    // The organization's default is where the form starts, not a change of the member's.
    setBaseline((start) => ({ ...start, linkTracking: value }));
    dispatch({ type: 'setLinkTracking', value });
  }, [edit, state.linkTracking, defaults, dispatch]);
  // docs/analytics.md#short-links: a post that has not chosen starts from the organization's.
  useEffect(() => {
    if (state.shortLinks !== undefined || !defaults) return;
    setBaseline((start) => ({ ...start, shortLinks: defaults.shortLinks }));
    dispatch({ type: 'setShortLinks', value: defaults.shortLinks });
  }, [state.shortLinks, defaults, dispatch]);
  // docs/product.md#approvals: scheduling or publishing becomes a submission for some members.
  const organization = useOrganization(orgId);
  const { has } = usePermissions();
  const { member } = useAuth();
  // docs/product.md#approvals: when roles are chosen, only their members submit.
  const approvalRoles = organization.data?.postApprovalRoleIds ?? [];
  const submitsForApproval =
    Boolean(organization.data?.requirePostApproval) &&
    !has('post:approve') &&
    (approvalRoles.length === 0 || !member?.roleId || approvalRoles.includes(member.roleId)) &&
    state.action !== 'draft';
  const approvesOnSave =
    edit?.post.status === 'pending_approval' && has('post:approve') && state.action !== 'draft';

  const isSubmitting = mutation.isPending;
  const issues = composeIssues(state, editable, zone);
  const problems = hasAttempted ? submitProblems(state, editable) : { content: {}, empty: null };
  const canSubmit =
    editable.length > 0 &&
    !isSubmitting &&
    !hasBlockingIssues(issues) &&
    Object.keys(followUpIssues).length === 0;

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
    if (repeat.problem) return;
    const found = submitProblems(state, editable);
    if (hasSubmitProblems(found)) {
      const first = editable.find((p) => found.content[p.id]);
      document.getElementById(textFieldId(first ? first.id : null))?.focus();
      return;
    }
    // The server refuses Mastodon settings it cannot send, a draft's too: shown beside them.
    if (!mastodon.isReady()) {
      setTimeout(() =>
        document
          .querySelector<HTMLElement>(`#${MASTODON_SECTION_ID} [aria-invalid="true"]`)
          ?.focus(),
      );
      return;
    }
    // TikTok's guidelines: nothing goes out before the user chose who sees it (a draft may wait).
    if (state.action !== 'draft' && !tiktok.isReady()) {
      // The problems show beside their fields once rendered: the first one takes the focus.
      setTimeout(() =>
        document.querySelector<HTMLElement>(`#${TIKTOK_SECTION_ID} [aria-invalid="true"]`)?.focus(),
      );
      return;
    }
    // YouTube needs a title and the made-for-kids answer before anything goes out.
    if (state.action !== 'draft' && !youtube.isReady()) {
      setTimeout(() =>
        document
          .querySelector<HTMLElement>(`#${YOUTUBE_SECTION_ID} [aria-invalid="true"]`)
          ?.focus(),
      );
      return;
    }
    // An event or offer without its title and dates, or a button without its link, is refused.
    if (state.action !== 'draft' && !googleBusiness.isReady()) {
      setTimeout(() =>
        document.querySelector<HTMLElement>(`#${GBP_SECTION_ID} [aria-invalid="true"]`)?.focus(),
      );
      return;
    }
    // A pin needs its board before anything goes out.
    if (state.action !== 'draft' && !pinterest.isReady()) {
      setTimeout(() =>
        document
          .querySelector<HTMLElement>(`#${PINTEREST_SECTION_ID} [aria-invalid="true"]`)
          ?.focus(),
      );
      return;
    }
    // The page may have sat open past the chosen time; the render then shows why.
    if (state.action === 'schedule' && scheduleProblem(state.scheduleAt, zone)) return;
    // Sending right away cannot be taken back: the member first sees every account it goes to.
    if (state.action === 'publish' && !submitsForApproval) {
      setConfirmingPublish(true);
      return;
    }
    send();
  };

  // A hold whose answer this screen will not see (the person left while it was on its way, and
  // the mutation's callbacks do not run after unmount) is released, or it would keep every later
  // post toast back.
  const openHold = useRef<ReturnType<typeof holdPostNotifications> | null>(null);
  useEffect(() => () => openHold.current?.release(), []);

  /** `queue`: Add to queue (docs/queue-and-import.md), the same checks as scheduling. */
  const send = (queue = false) => {
    setConfirmingPublish(false);
    setProgress(0);
    const draft = draftOf(
      state,
      editable,
      zone,
      edit,
      tiktok.forDraft(),
      followUps.forDraft(),
      mastodon.forDraft(),
      youtube.forDraft(),
      googleBusiness.forDraft(),
      pinterest.forDraft(),
    );
    // Publish now's outcomes may come over the stream before its answer: held until it is known.
    const hold = !edit && !queue && state.action === 'publish' ? holdPostNotifications() : null;
    openHold.current = hold;
    mutation.mutate(
      {
        draft: queue ? { ...draft, action: 'queue', scheduledAt: undefined } : draft,
        onProgress: setProgress,
      },
      {
        onSuccess: (post) => {
          leaveGuard.allowLeaving();
          autosave.sent();
          repeat.saveFor(post.id);
          if (hold && post.status !== 'pending_approval') {
            hold.follow(post.id);
            reset();
            setHasAttempted(false);
            setPublishedNow(post.id);
            return;
          }
          hold?.release();
          toast.success(
            post.status === 'pending_approval'
              ? SUBMITTED_FOR_APPROVAL
              : queue
                ? queuedMessage(post.scheduledAt, zone)
                : successMessage(state, zone, Boolean(edit)),
          );
          reset();
          setHasAttempted(false);
          void navigate(
            edit ? generatePath(paths.postDetails, { postId: post.id }) : paths.content,
          );
        },
        onError: (error) => {
          hold?.release();
          const failure = classifyCreatePostError(error, edit ? 'update' : 'create');
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
        // docs/product.md#create-post: Ctrl/Cmd+Enter presses the main button from anywhere in the form.
        onKeyDown={(event) => {
          if (event.key !== 'Enter' || !(event.ctrlKey || event.metaKey)) return;
          event.preventDefault();
          event.currentTarget.requestSubmit();
        }}
        noValidate
        aria-label={edit ? 'Edit Social Post' : 'Create Social Post'}
        className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,26rem)]"
      >
        {/* Phones: the preview is one tap away at the top instead of below the whole form. */}
        <button
          type="button"
          aria-expanded={previewOpen}
          aria-controls="composer-preview"
          onClick={() => setPreviewOpen((open) => !open)}
          className="order-1 inline-flex h-11 items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600 lg:hidden"
        >
          {previewOpen ? (
            <EyeOff className="size-4" aria-hidden="true" />
          ) : (
            <Eye className="size-4" aria-hidden="true" />
          )}
          {previewOpen ? 'Hide preview' : 'Show preview'}
        </button>
        <div className="order-3 flex min-w-0 flex-col gap-6 lg:order-none">
          <AutosaveNote
            status={autosave.status}
            restoredAt={autosave.restoredAt}
            disabled={isSubmitting}
            onDiscard={() => {
              autosave.discard();
              dispatch({ type: 'reset', state: baseline });
            }}
          />
          <PlatformPicker
            platforms={platforms}
            selectedIds={state.platformIds}
            lockedIds={lockedIds}
            lockedLabels={edit ? lockedLabels(edit.post) : undefined}
            onToggle={(platformId) => dispatch({ type: 'togglePlatform', platformId })}
            problems={Object.fromEntries(
              editable.map((p) => [
                p.id,
                [...(issues.accountProblems[p.id] ?? []), ...(followUpIssues[p.id] ?? [])],
              ]),
            )}
            disabled={isSubmitting}
          />
          <ContentEditor
            orgId={orgId}
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
            selected={editable}
            textErrors={issues.textErrors}
            tracking={state.linkTracking}
            submitErrors={{
              ...problems.content,
              ...(problems.empty ? { shared: problems.empty } : {}),
            }}
            disabled={isSubmitting}
          />
          <MediaSection
            selected={editable}
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
            onAltText={(itemId, text) => dispatch({ type: 'setAltText', itemId, text })}
            orgId={orgId}
            onAddFromLibrary={(platformId, items) =>
              dispatch({ type: 'addMedia', platformId, items })
            }
          />
          <LinkTrackingSection
            value={state.linkTracking ?? null}
            fallback={
              defaults?.tracking.campaign ? defaults.tracking : { ...DEFAULT_LINK_TRACKING }
            }
            selected={editable}
            onChange={(value) => dispatch({ type: 'setLinkTracking', value })}
            disabled={isSubmitting}
          />
          <ShortLinksToggle
            value={state.shortLinks ?? false}
            onChange={(value) => dispatch({ type: 'setShortLinks', value })}
            disabled={isSubmitting}
          />
          <FollowUpsSection
            offered={followUps.offered}
            values={followUps.values}
            onChange={followUps.change}
            issues={followUpIssues}
            disabled={isSubmitting}
          />
          <XCostNote
            selected={editable}
            textFor={(platformId) => textFor(state, platformId)}
            followUps={followUps.values}
          />
          <MastodonSection
            selected={editable}
            settings={mastodon.settings}
            onChange={mastodon.change}
            disabled={isSubmitting}
          />
          <GbpSection
            selected={editable}
            settings={googleBusiness.settings}
            onChange={googleBusiness.change}
            showProblems={hasAttempted && state.action !== 'draft'}
            disabled={isSubmitting}
          />
          <BlueskyVideoNote
            orgId={orgId}
            selected={editable}
            hasVideo={(id) => tiktok.videoOf(id).hasVideo}
          />
          <TikTokSection
            orgId={orgId}
            selected={editable}
            settings={tiktok.settings}
            onChange={tiktok.change}
            videoOf={tiktok.videoOf}
            showProblems={hasAttempted && state.action !== 'draft'}
            disabled={isSubmitting}
          />
          <YouTubeSection
            selected={editable}
            settings={youtube.settings}
            onChange={youtube.change}
            mediaOf={youtube.mediaOf}
            showProblems={hasAttempted && state.action !== 'draft'}
            laterTime={youtube.laterTime}
          />
          <PinterestSection
            orgId={orgId}
            selected={editable}
            settings={pinterest.settings}
            onChange={pinterest.change}
            showProblems={hasAttempted && state.action !== 'draft'}
          />
          <ScheduleSection
            action={state.action}
            onActionChange={(action) => dispatch({ type: 'setAction', action })}
            scheduleAt={state.scheduleAt}
            onScheduleAtChange={(value) => dispatch({ type: 'setScheduleAt', value })}
            error={issues.scheduleError}
            zone={zone}
            zoneSource={zoneSource}
            disabled={isSubmitting}
          >
            <BestTimeHint
              orgId={orgId}
              integrationIds={editable.map((p) => p.id)}
              zone={zone}
              disabled={isSubmitting}
              onPick={(value) => dispatch({ type: 'setScheduleAt', value })}
            />
          </ScheduleSection>
          <RepeatSection
            choice={repeat.choice}
            onChange={repeat.setChoice}
            problem={hasAttempted ? repeat.problem : null}
            disabled={isSubmitting}
          />
          <SubmitBar
            canSubmit={canSubmit}
            isSubmitting={isSubmitting}
            progress={progress}
            blockedReason={blockedReason(editable, issues, followUpIssues)}
            label={mainButtonLabel(state.action, {
              isEdit: Boolean(edit),
              submits: submitsForApproval,
              approves: approvesOnSave,
            })}
            {...(edit && {
              isEdit: true,
              cancelTo: generatePath(paths.postDetails, { postId: edit.post.id }),
            })}
          />
          {!edit && (
            <AddToQueueButton
              orgId={orgId}
              integrationIds={editable.map((p) => p.id)}
              zone={zone}
              disabled={!canSubmit}
              onAdd={() => {
                setHasAttempted(true);
                const found = submitProblems(state, editable);
                if (
                  hasSubmitProblems(found) ||
                  !tiktok.isReady() ||
                  !mastodon.isReady() ||
                  !youtube.isReady() ||
                  !googleBusiness.isReady() ||
                  !pinterest.isReady()
                )
                  return;
                send(true);
              }}
            />
          )}
        </div>
        <aside
          id="composer-preview"
          aria-label="Preview"
          className={cn(
            'order-2 min-w-0 lg:sticky lg:top-4 lg:order-none lg:block lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto',
            !previewOpen && 'hidden',
          )}
        >
          <PostPreviews
            contentWarningFor={(platformId) =>
              mastodon.settings[platformId]?.spoilerText.trim() ?? ''
            }
            googleBusinessFor={(platformId) => googleBusiness.settings[platformId]}
            pinFor={pinterest.pinOf}
            platforms={editable}
            textFor={(platformId) =>
              applyLinkTracking(
                textFor(state, platformId),
                state.linkTracking,
                editable.find((p) => p.id === platformId)?.name ?? '',
              )
            }
            mediaFor={(platformId) => mediaFor(state, platformId)}
          />
          <FollowUpsPreview offered={followUps.offered} values={followUps.values} />
        </aside>
      </form>
      {leaveGuard.dialog}
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
        platforms={editable}
        onConfirm={() => send()}
      />
      {publishedNow && (
        <PublishProgress
          orgId={orgId}
          postId={publishedNow}
          onClose={() => {
            setPublishedNow(null);
            void navigate(paths.content);
          }}
        />
      )}
    </>
  );
}
