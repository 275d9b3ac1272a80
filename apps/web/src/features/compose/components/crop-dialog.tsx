import {
  centredCropArea,
  CROP_RATIO_NAMES,
  CROP_RATIO_USES,
  CROP_RATIOS,
  type CropRatio,
  type MediaLibraryItem,
} from '@herald/contract';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { useCropMedia } from '../api/use-media-library';

interface CropDialogProps {
  orgId: string;
  /** The library image to crop; null: the dialog is closed. */
  item: MediaLibraryItem | null;
  onClose: () => void;
  /** The new library item, cut to the chosen ratio (the original stays in the library). */
  onCropped: (item: MediaLibraryItem) => void;
}

/**
 * Crops a library image to one of the networks' ratios (docs/media-library.md). The frame shows
 * the centred area that is kept; the server cuts it with sharp and keeps the original.
 */
export function CropDialog({ orgId, item, onClose, onCropped }: CropDialogProps) {
  const [ratio, setRatio] = useState<CropRatio>('1:1');
  const crop = useCropMedia(orgId);
  const width = item?.width ?? 0;
  const height = item?.height ?? 0;
  const area = centredCropArea(width, height, CROP_RATIOS[ratio]);

  const close = () => {
    crop.reset();
    onClose();
  };

  return (
    <Modal
      open={item !== null}
      onOpenChange={(open) => !open && close()}
      title={item ? `Crop ${item.fileName}` : 'Crop'}
      description="Choose the shape a network shows best. The crop is a new file in the library; the original stays as it is."
      size="lg"
    >
      {item && (
        <div className="grid gap-5 sm:grid-cols-[minmax(0,1fr)_14rem]">
          <div className="flex items-center justify-center rounded-xl bg-slate-100 p-3">
            <div
              className="relative w-full max-w-md"
              style={{ aspectRatio: `${width} / ${height}` }}
            >
              <img
                src={item.url}
                alt={item.altText ?? ''}
                className="absolute inset-0 size-full rounded object-cover"
              />
              <div
                data-testid="crop-frame"
                aria-hidden="true"
                className="absolute rounded border-2 border-white shadow-[0_0_0_9999px_rgba(15,23,42,0.55)]"
                style={{
                  left: `${(area.left / width) * 100}%`,
                  top: `${(area.top / height) * 100}%`,
                  width: `${(area.width / width) * 100}%`,
                  height: `${(area.height / height) * 100}%`,
                }}
              />
            </div>
          </div>
          <div>
            <fieldset>
              <legend className="text-sm font-semibold text-slate-900">Ratio</legend>
              <div className="mt-2 space-y-2">
                {CROP_RATIO_NAMES.map((name) => (
                  <label
                    key={name}
                    className={cn(
                      'flex cursor-pointer items-start gap-2 rounded-lg border p-2 text-sm',
                      name === ratio ? 'border-indigo-600 bg-indigo-50' : 'border-slate-200',
                    )}
                  >
                    <input
                      type="radio"
                      name="crop-ratio"
                      value={name}
                      checked={name === ratio}
                      onChange={() => setRatio(name)}
                      className="mt-0.5"
                    />
                    <span>
                      <span className="font-semibold text-slate-900">{name}</span>
                      <span className="block text-xs text-slate-600">{CROP_RATIO_USES[name]}</span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
            <p className="mt-3 text-sm text-slate-700" aria-live="polite">
              Result: {area.width}×{area.height} pixels
            </p>
            {crop.isError && (
              <Alert className="mt-3">
                {errorMessage(crop.error, 'The crop failed. Try again.')}
              </Alert>
            )}
            <div className="mt-4 flex flex-wrap gap-2">
              <Button
                disabled={crop.isPending}
                onClick={() =>
                  crop.mutate(
                    { id: item.id, ratio },
                    {
                      onSuccess: (cropped) => {
                        crop.reset();
                        onCropped(cropped);
                      },
                    },
                  )
                }
              >
                {crop.isPending ? 'Cropping…' : `Crop to ${ratio}`}
              </Button>
              <Button variant="secondary" onClick={close}>
                Cancel
              </Button>
            </div>
          </div>
        </div>
      )}
    </Modal>
  );
}
