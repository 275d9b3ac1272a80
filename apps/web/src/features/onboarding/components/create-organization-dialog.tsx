import { OrganizationNameSchema, ORGANIZATION_NAME_MAX } from '@herald/contract';
import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { Modal, ModalActions } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { REDIRECT_DELAYS } from '@/config/timing';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { useDelayedNavigate } from '@/lib/use-delayed-navigate';
import { useCreateOrganization } from '../api/organizations';

export const CREATE_ORGANIZATION_FAILED = 'Failed to create organization. Please try again.';

interface CreateOrganizationDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * Names and creates an organization; the new one becomes current and the user goes on to its
 * dashboard a second later (docs/product.md#constants). Used by /onboarding and /create-organization.
 */
export function CreateOrganizationDialog({ open, onOpenChange }: CreateOrganizationDialogProps) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const createOrganization = useCreateOrganization();
  const navigateLater = useDelayedNavigate();
  const isBusy = createOrganization.isPending || createOrganization.isSuccess;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = OrganizationNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Organization name cannot be empty.');
      return;
    }
    setError(null);
    createOrganization.mutate(parsed.data, {
      onSuccess: (organization) => {
        toast.success(`Organization "${organization.name}" created!`);
        navigateLater(paths.dashboard, REDIRECT_DELAYS.afterCreateOrganization);
      },
      onError: (failure) => setError(errorMessage(failure, CREATE_ORGANIZATION_FAILED)),
    });
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => !isBusy && onOpenChange(next)}
      title="Create Organization"
      description="An organization holds your team, connected accounts and posts."
    >
      <form onSubmit={onSubmit} noValidate>
        <TextField
          label="Organization name"
          name="name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="e.g. Acme Marketing"
          maxLength={ORGANIZATION_NAME_MAX}
          autoComplete="organization"
          error={error}
          disabled={isBusy}
          autoFocus
        />
        <ModalActions>
          <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={isBusy}>
            Cancel
          </Button>
          <Button type="submit" disabled={isBusy}>
            {isBusy && <Spinner className="size-4 text-white" />}
            {createOrganization.isSuccess ? 'Opening your dashboard…' : 'Create'}
          </Button>
        </ModalActions>
      </form>
    </Modal>
  );
}
