import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { Modal, ModalActions } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { toast, toastError } from '@/lib/toast';
import { useCreatePlatform } from '../api/platforms';
import { validatePlatformForm } from './platform-form';

export const PLATFORM_CREATED = 'Platform created successfully!';
export const PLATFORM_CREATE_FAILED = 'Failed to create platform.';

const EXAMPLE = `{
  "image": {
    "allowedMimeTypes": ["image/jpeg", "image/png"],
    "maxFileSize": 5242880
  }
}`;

function CreatePlatformForm({ onClose }: { onClose: () => void }) {
  const create = useCreatePlatform();
  const [name, setName] = useState('');
  const [constraints, setConstraints] = useState('');
  const [error, setError] = useState<{
    field: 'name' | 'mediaConstraints';
    message: string;
  } | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validatePlatformForm(name, constraints);
    if (!result.request) {
      setError({ field: result.field, message: result.error });
      return;
    }
    setError(null);
    create.mutate(result.request, {
      onSuccess: () => {
        toast.success(PLATFORM_CREATED);
        onClose();
      },
      onError: (failure) => toastError(failure, PLATFORM_CREATE_FAILED),
    });
  };

  const constraintsError = error?.field === 'mediaConstraints' ? error.message : null;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-4">
      <TextField
        label="Name"
        value={name}
        onChange={(event) => setName(event.target.value)}
        error={error?.field === 'name' ? error.message : null}
        maxLength={60}
        required
      />
      <div>
        <label htmlFor="media-constraints" className="block text-sm font-medium text-slate-800">
          Media Constraints (JSON, optional)
        </label>
        <textarea
          id="media-constraints"
          value={constraints}
          onChange={(event) => setConstraints(event.target.value)}
          rows={7}
          spellCheck={false}
          placeholder={EXAMPLE}
          aria-invalid={constraintsError ? true : undefined}
          aria-describedby={constraintsError ? 'media-constraints-error' : 'media-constraints-hint'}
          className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 font-mono text-xs"
        />
        {constraintsError ? (
          <p id="media-constraints-error" className="mt-1 text-sm text-red-700">
            {constraintsError}
          </p>
        ) : (
          <p id="media-constraints-hint" className="mt-1 text-xs text-slate-600">
            Rules per media type (image, video, reel) and for text. Leave empty for none.
          </p>
        )}
      </div>
      <ModalActions>
        <Button variant="secondary" onClick={onClose} disabled={create.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending && <Spinner className="size-4 text-white" />}
          Create
        </Button>
      </ModalActions>
    </form>
  );
}

/** docs/product.md#admin-platforms: the 'Create Platform' modal. */
export function CreatePlatformModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} onOpenChange={(next) => !next && onClose()} title="Create Platform">
      {open && <CreatePlatformForm onClose={onClose} />}
    </Modal>
  );
}
