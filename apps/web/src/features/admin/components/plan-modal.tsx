import type { Plan } from '@herald/contract';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/form-field';
import { Modal, ModalActions } from '@/components/ui/modal';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';
import { toast, toastError } from '@/lib/toast';
import { useSavePlan } from '../api/plans';
import {
  COUNT_FIELDS,
  EMPTY_PLAN_FORM,
  planToForm,
  validatePlanForm,
  type PlanFormErrors,
  type PlanFormValues,
} from './plan-form';

export const PLAN_SAVE_FAILED = 'Failed to save plan.';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="grid gap-4 rounded-xl border border-slate-200 p-4 sm:grid-cols-2">
      <legend className="px-1 text-sm font-semibold text-slate-900">{title}</legend>
      {children}
    </fieldset>
  );
}

function Checkbox({
  label,
  checked,
  onChange,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-slate-800">
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="size-4 rounded border-slate-300 text-indigo-600"
      />
      {label}
    </label>
  );
}

function PlanForm({ plan, onClose }: { plan: Plan | null; onClose: () => void }) {
  const save = useSavePlan();
  const [values, setValues] = useState<PlanFormValues>(() =>
    plan ? planToForm(plan) : EMPTY_PLAN_FORM,
  );
  const [errors, setErrors] = useState<PlanFormErrors>({});
  const set = <K extends keyof PlanFormValues>(field: K, value: PlanFormValues[K]) =>
    setValues((current) => ({ ...current, [field]: value }));
  const text = (field: keyof PlanFormValues) => ({
    value: values[field] as string,
    onChange: (event: { target: { value: string } }) => set(field, event.target.value),
    error: errors[field],
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const result = validatePlanForm(values);
    setErrors(result.errors ?? {});
    if (!result.request) return;
    save.mutate(
      { id: plan?.id ?? null, plan: result.request },
      {
        onSuccess: () => {
          toast.success(plan ? 'Plan updated successfully!' : 'Plan created successfully!');
          onClose();
        },
        onError: (error) => toastError(error, PLAN_SAVE_FAILED),
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <Section title="Plan Information">
        <TextField label="Name" {...text('name')} maxLength={60} required />
        <TextField
          label="Price"
          inputMode="decimal"
          {...text('price')}
          placeholder="0.00"
          hint="Per month, in US dollars; 0 makes the plan free."
          required
        />
        <label className="sm:col-span-2">
          <span className="block text-sm font-medium text-slate-800">Description</span>
          <textarea
            value={values.description}
            onChange={(event) => set('description', event.target.value)}
            rows={2}
            maxLength={500}
            required
            aria-invalid={errors.description ? true : undefined}
            aria-describedby={errors.description ? 'plan-description-error' : undefined}
            className={cn(
              'mt-1 block w-full rounded-lg border px-3 py-2 text-sm',
              errors.description ? 'border-red-400' : 'border-slate-300',
            )}
          />
          {errors.description && (
            <span id="plan-description-error" className="mt-1 block text-sm text-red-700">
              {errors.description}
            </span>
          )}
        </label>
        <SelectField
          label="Billing Cycle"
          value={values.billingCycle}
          onChange={(event) =>
            set('billingCycle', event.target.value as PlanFormValues['billingCycle'])
          }
        >
          <option value="MONTHLY">Monthly</option>
          <option value="YEARLY">Yearly</option>
        </SelectField>
        <TextField label="Stripe Price ID" {...text('stripePriceId')} placeholder="price_…" />
        <TextField label="Plan Type" {...text('planType')} />
      </Section>
      <Section title="Features">
        {COUNT_FIELDS.map(({ field, label }) => (
          <TextField
            key={field}
            label={label}
            type="number"
            min={1}
            step={1}
            inputMode="numeric"
            {...text(field)}
          />
        ))}
        <Checkbox
          label="Priority support"
          checked={values.prioritySupport}
          onChange={(checked) => set('prioritySupport', checked)}
        />
      </Section>
      <Section title="Status">
        <SelectField
          label="Status"
          value={values.status}
          onChange={(event) => set('status', event.target.value as PlanFormValues['status'])}
        >
          <option value="ACTIVE">Active</option>
          <option value="INACTIVE">Inactive</option>
        </SelectField>
        <div className="flex flex-col justify-end gap-2">
          <Checkbox
            label="Mark as popular"
            checked={values.popular}
            onChange={(checked) => set('popular', checked)}
          />
          <Checkbox
            label="Offers the free trial"
            checked={values.trialEligible}
            onChange={(checked) => set('trialEligible', checked)}
          />
        </div>
      </Section>
      <ModalActions>
        <Button variant="secondary" onClick={onClose} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending && <Spinner className="size-4 text-white" />}
          {plan ? 'Save Changes' : 'Create Plan'}
        </Button>
      </ModalActions>
    </form>
  );
}

/** docs/product.md#admin-plans: 'Create Plan' (no plan) or 'Edit Plan'. */
export function PlanModal({
  open,
  plan,
  onClose,
}: {
  open: boolean;
  plan: Plan | null;
  onClose: () => void;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={plan ? 'Edit Plan' : 'Create Plan'}
      size="lg"
    >
      {open && <PlanForm key={plan?.id ?? 'new'} plan={plan} onClose={onClose} />}
    </Modal>
  );
}
