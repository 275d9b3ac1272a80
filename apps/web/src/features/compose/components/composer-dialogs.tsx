import type { PlatformValidationError } from '@herald/contract';
import { SubscriptionRequiredDialog } from '@/components/ui/subscription-required-dialog';
import type { ComposePlatform } from '../utils/compose-platforms';
import { ActionRequiredModal } from './action-required-modal';
import { MediaValidationDialog } from './media-validation-dialog';
import { RequirementsDialog } from './requirements-dialog';

/** The one dialog the composer shows at a time. */
export type ComposeDialog =
  | { kind: 'subscription'; message: string }
  | { kind: 'limit'; message: string }
  | { kind: 'mediaErrors' }
  /** `back`: closing returns to the Media Validation Errors it was opened from. */
  | { kind: 'requirements'; platforms: readonly ComposePlatform[]; back: boolean };

interface ComposerDialogsProps {
  dialog: ComposeDialog | null;
  onChange: (dialog: ComposeDialog | null) => void;
  /** The server's last refusal, kept so the toast can open it again. */
  mediaErrors: readonly PlatformValidationError[];
  platforms: readonly ComposePlatform[];
  onGoToMedia: () => void;
}

export function ComposerDialogs({
  dialog,
  onChange,
  mediaErrors,
  platforms,
  onGoToMedia,
}: ComposerDialogsProps) {
  const close = (open: boolean) => {
    if (open) return;
    onChange(dialog?.kind === 'requirements' && dialog.back ? { kind: 'mediaErrors' } : null);
  };
  // A refusal names a network, or "Network (account)" where several accounts of it are chosen.
  const byName = (name: string) => {
    const key = name.trim().toLowerCase();
    const found = platforms.filter(
      (p) => p.label.toLowerCase() === key || p.name.toLowerCase() === key,
    );
    return found.filter((p, i) => found.findIndex((o) => o.platformId === p.platformId) === i);
  };

  return (
    <>
      <SubscriptionRequiredDialog
        open={dialog?.kind === 'subscription'}
        onOpenChange={close}
        message={dialog?.kind === 'subscription' ? dialog.message : ''}
      />
      <ActionRequiredModal
        open={dialog?.kind === 'limit'}
        onOpenChange={close}
        message={dialog?.kind === 'limit' ? dialog.message : ''}
      />
      <MediaValidationDialog
        open={dialog?.kind === 'mediaErrors'}
        onOpenChange={close}
        errors={mediaErrors}
        onViewRequirements={(name) =>
          onChange({ kind: 'requirements', platforms: byName(name), back: true })
        }
        onGoToMedia={() => {
          onChange(null);
          onGoToMedia();
        }}
      />
      <RequirementsDialog
        open={dialog?.kind === 'requirements'}
        onOpenChange={close}
        platforms={dialog?.kind === 'requirements' ? dialog.platforms : []}
      />
    </>
  );
}
