import type { PlatformValidationError } from '@herald/contract';
import { Button } from '@/components/ui/button';
import { Modal, ModalActions } from '@/components/ui/modal';

interface MediaValidationDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  errors: readonly PlatformValidationError[];
  onViewRequirements: (platformName: string) => void;
  onGoToMedia: () => void;
}

/** docs/product.md#create-post, #messages: the server refused media; one row per platform and reason. */
export function MediaValidationDialog({
  open,
  onOpenChange,
  errors,
  onViewRequirements,
  onGoToMedia,
}: MediaValidationDialogProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title="Media Validation Errors"
      description="The networks below cannot take the post's media as it is."
      size="lg"
    >
      <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
        {errors.map((error, index) => (
          <li
            key={`${error.platformName}-${index}`}
            className="flex flex-col gap-1 p-3 sm:flex-row"
          >
            <span className="w-28 shrink-0 font-semibold text-slate-900">{error.platformName}</span>
            <span className="flex-1 text-sm text-slate-700">{error.message}</span>
            <button
              type="button"
              aria-label={`View requirements for ${error.platformName}`}
              onClick={() => onViewRequirements(error.platformName)}
              className="self-start text-sm font-semibold text-indigo-700 underline hover:text-indigo-900"
            >
              View requirements
            </button>
          </li>
        ))}
      </ul>
      <ModalActions>
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Close
        </Button>
        <Button onClick={onGoToMedia}>Go to Media Section</Button>
      </ModalActions>
    </Modal>
  );
}
