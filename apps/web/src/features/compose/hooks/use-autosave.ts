import type { ComposerDraftBody } from '@herald/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  discardComposerDraft,
  saveComposerDraft,
  useComposerDraft,
} from '../api/use-composer-draft';

/** docs/product.md#composer-autosave: how long typing pauses before the draft is saved. */
export const AUTOSAVE_DELAY_MS = 1500;

export type AutosaveStatus =
  { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; at: string } | { kind: 'failed' };

interface AutosaveOptions {
  orgId: string;
  /** The post being edited; null for a new post. */
  postId: string | null;
  body: ComposerDraftBody;
  /** Whether the form differs from where it started: an untouched form is not saved. */
  dirty: boolean;
  /** Puts a kept draft back into the form (called once, when the form is still untouched). */
  onRestore: (body: ComposerDraftBody) => void;
}

/**
 * Keeps the member's unsent work on the server while they type, and brings it back when the
 * composer opens again, on this device or another. Sending the post (or discarding) drops it.
 */
export function useAutosave({ orgId, postId, body, dirty, onRestore }: AutosaveOptions) {
  const kept = useComposerDraft(orgId, postId);
  const [status, setStatus] = useState<AutosaveStatus>({ kind: 'idle' });
  const [restoredAt, setRestoredAt] = useState<string | null>(null);
  const json = JSON.stringify(body);
  // What the server holds, so the same form is not sent twice.
  const lastSaved = useRef<string | null>(null);
  // No more saves once the post is sent (or the draft discarded).
  const stopped = useRef(false);
  const pending = useRef<ComposerDraftBody | null>(null);
  const settled = useRef(false);

  // Until the kept draft is known, saving would overwrite it before the member saw it.
  const ready = !kept.isPending;
  useEffect(() => {
    if (!ready || settled.current) return;
    settled.current = true;
    const draft = kept.data;
    if (!draft || dirty) return;
    lastSaved.current = JSON.stringify(draft.body);
    setRestoredAt(draft.updatedAt);
    onRestore(draft.body);
  }, [ready, kept.data, dirty, onRestore]);

  const save = useCallback(
    (next: ComposerDraftBody) => {
      const text = JSON.stringify(next);
      pending.current = null;
      if (stopped.current || text === lastSaved.current) return;
      setStatus({ kind: 'saving' });
      saveComposerDraft(orgId, postId, next).then(
        (saved) => {
          lastSaved.current = text;
          if (!stopped.current) setStatus({ kind: 'saved', at: saved?.updatedAt ?? '' });
        },
        () => {
          if (!stopped.current) setStatus({ kind: 'failed' });
        },
      );
    },
    [orgId, postId],
  );

  useEffect(() => {
    if (!ready || !settled.current || !dirty || stopped.current) return;
    const next = JSON.parse(json) as ComposerDraftBody;
    pending.current = next;
    const timer = setTimeout(() => save(next), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [json, dirty, ready, save]);

  // Leaving mid-pause: what was typed last still reaches the server.
  useEffect(
    () => () => {
      if (pending.current) save(pending.current);
    },
    [save],
  );

  return {
    status,
    /** When the draft now in the form was saved, if the form was restored from one. */
    restoredAt,
    /** The post was sent: the kept draft is no longer needed. */
    sent: () => {
      stopped.current = true;
      pending.current = null;
      void discardComposerDraft(orgId, postId).catch(() => undefined);
    },
    /** The member starts over: the kept draft goes, later typing is saved again. */
    discard: () => {
      pending.current = null;
      lastSaved.current = null;
      setRestoredAt(null);
      setStatus({ kind: 'idle' });
      void discardComposerDraft(orgId, postId).catch(() => undefined);
    },
  };
}
