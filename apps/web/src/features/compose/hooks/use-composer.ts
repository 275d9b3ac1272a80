import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from 'react';
import { toastMediaRejections } from '../components/media-rejection-toast';
import { acceptMedia, type MediaTarget } from '../utils/accept-media';
import type { ComposePlatform } from '../utils/compose-platforms';
import {
  allMedia,
  composeReducer,
  initialComposeState,
  mediaFor,
  uploadedMedia,
  type ComposeState,
} from '../utils/compose-state';
import { revokePreview, toMediaItems, withPreview, type MediaItem } from '../utils/media-files';

/**
 * The composer's state and the media steps that need the browser: measuring files, checking
 * them with the contract's rules against the networks they go to, and object URLs that are
 * released when a file leaves the form or the page closes.
 */
export function useComposer(
  platforms: readonly ComposePlatform[],
  initialScheduleAt: string,
  /** Editing: the form as the stored post fills it, and the accounts that can no longer change. */
  edit?: { initial: () => ComposeState; lockedIds: readonly string[] },
) {
  const [state, dispatch] = useReducer(composeReducer, initialScheduleAt, (at) =>
    edit ? edit.initial() : initialComposeState(at),
  );
  const lockedIds = edit?.lockedIds;
  const [readingFor, setReadingFor] = useState<string | null>(null);
  // Files are measured asynchronously; the checks must see the form as it is by then.
  const latest = useRef<ComposeState>(state);
  useLayoutEffect(() => {
    latest.current = state;
  });
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const urls = previews.current;
    return () => {
      for (const url of urls) revokePreview({ previewUrl: url });
      urls.clear();
    };
  }, []);

  const selected = useMemo(
    () => platforms.filter((platform) => state.platformIds.includes(platform.id)),
    [platforms, state.platformIds],
  );

  const addMedia = useCallback(
    async (platformId: string | null, files: File[]) => {
      setReadingFor(platformId ?? 'shared');
      try {
        const candidates = await toMediaItems(files);
        const current = latest.current;
        // Accounts the post already went out to get no new files: their rules do not apply.
        const goesTo = platforms.filter(
          (p) =>
            current.platformIds.includes(p.id) &&
            !lockedIds?.includes(p.id) &&
            (platformId === null || p.id === platformId),
        );
        const targets: MediaTarget[] =
          goesTo.length > 0
            ? goesTo.map((p) => ({
                name: p.label,
                constraints: p.constraints,
                current: mediaFor(current, p.id).map((item) => item.facts),
              }))
            : [{ name: '', constraints: null, current: current.sharedMedia.map((i) => i.facts) }];
        const { accepted, rejections } = acceptMedia({
          candidates,
          targets,
          uploadedCount: uploadedMedia(current).length,
        });
        toastMediaRejections(rejections);
        if (accepted.length === 0) return;
        const items = accepted.map(withPreview);
        for (const item of items) if (item.previewUrl) previews.current.add(item.previewUrl);
        dispatch({ type: 'addMedia', platformId, items });
      } finally {
        setReadingFor(null);
      }
    },
    [platforms, lockedIds],
  );

  const removeMedia = useCallback((platformId: string | null, item: MediaItem) => {
    revokePreview(item);
    if (item.previewUrl) previews.current.delete(item.previewUrl);
    dispatch({ type: 'removeMedia', platformId, id: item.id });
  }, []);

  const reset = useCallback(() => {
    for (const item of allMedia(latest.current)) revokePreview(item);
    previews.current.clear();
    dispatch({ type: 'reset', state: initialComposeState() });
  }, []);

  return { state, dispatch, selected, addMedia, removeMedia, reset, readingFor };
}
