import {
  brandTextColor,
  contrastRatio,
  LOGO_MAX_BYTES,
  LOGO_MIME_TYPES,
  LOGO_TOO_LARGE_MESSAGE,
  LOGO_TYPE_MESSAGE,
  normalizeBrandColor,
  type Organization,
} from '@herald/contract';
import { ImagePlus, Save, Trash2 } from 'lucide-react';
import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Button, buttonClasses } from '@/components/ui/button';
import { TextField } from '@/components/ui/form-field';
import { LoadingIndicator, Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { useOrganization } from '@/lib/organization';
import { toast, toastError } from '@/lib/toast';
import { useRemoveLogo, useSaveBrandColor, useUploadLogo } from '../api/branding';

export const LOGO_SAVED = 'Logo saved.';
export const LOGO_REMOVED = 'Logo removed.';
export const COLOR_SAVED = 'Brand colour saved.';
export const COLOR_REMOVED = 'Brand colour removed: reports use Herald’s indigo.';
export const COLOR_MESSAGE = 'Write the colour as a hex code such as #1d4ed8.';
/** What reports use without a colour of the organization's own. */
const DEFAULT_COLOR = '#4f46e5';

/** Why a chosen file cannot be the logo, before it is sent; null when it can. */
export function logoProblem(file: File): string | null {
  if (!(LOGO_MIME_TYPES as readonly string[]).includes(file.type)) return LOGO_TYPE_MESSAGE;
  if (file.size > LOGO_MAX_BYTES) return LOGO_TOO_LARGE_MESSAGE;
  return null;
}

function LogoField({ orgId, organization }: { orgId: string; organization: Organization }) {
  const upload = useUploadLogo(orgId);
  const remove = useRemoveLogo(orgId);
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [error, setError] = useState<string | null>(null);
  const logoUrl = organization.branding.logoUrl;

  const onChoose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = logoProblem(file);
    setError(problem);
    if (problem) return;
    upload.mutate(file, {
      onSuccess: () => toast.success(LOGO_SAVED),
      onError: (err) => setError(errorMessage(err, 'The logo could not be saved. Try again.')),
    });
  };

  return (
    <div>
      <p className="text-sm font-medium text-slate-800">Logo</p>
      <div className="mt-2 flex h-28 items-center justify-center rounded-lg border border-dashed border-slate-300 bg-slate-50 p-3">
        {logoUrl ? (
          <img
            src={logoUrl}
            alt={`${organization.name} logo`}
            className="max-h-full max-w-full object-contain"
          />
        ) : (
          <p className="text-sm text-slate-500">No logo yet</p>
        )}
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <input
          ref={input}
          type="file"
          accept={LOGO_MIME_TYPES.join(',')}
          className="sr-only"
          aria-label={logoUrl ? 'Replace logo' : 'Upload logo'}
          aria-describedby={hintId}
          onChange={onChoose}
          tabIndex={-1}
        />
        <button
          type="button"
          className={buttonClasses('secondary', 'sm')}
          disabled={upload.isPending}
          onClick={() => input.current?.click()}
        >
          {upload.isPending ? (
            <Spinner className="size-4" />
          ) : (
            <ImagePlus className="size-4" aria-hidden="true" />
          )}
          {logoUrl ? 'Replace logo' : 'Upload logo'}
        </button>
        {logoUrl && (
          <Button
            variant="ghost"
            size="sm"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(undefined, {
                onSuccess: () => {
                  setError(null);
                  toast.success(LOGO_REMOVED);
                },
                onError: (err) => toastError(err, 'The logo could not be removed. Try again.'),
              })
            }
          >
            <Trash2 className="size-4" aria-hidden="true" />
            Remove
          </Button>
        )}
      </div>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : (
        <p id={hintId} className="mt-2 text-xs text-slate-600">
          PNG, JPEG or WebP, up to 2 MB. A wide logo on a transparent or white background prints
          best.
        </p>
      )}
    </div>
  );
}

function ColorField({ orgId, organization }: { orgId: string; organization: Organization }) {
  const save = useSaveBrandColor(orgId);
  const saved = organization.branding.color;
  const [value, setValue] = useState(saved ?? '');
  const [error, setError] = useState<string | null>(null);
  const normalized = value.trim() ? normalizeBrandColor(value) : null;
  const shown = normalized ?? saved ?? DEFAULT_COLOR;
  const text = brandTextColor(shown);
  const ratio = contrastRatio(shown, text);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!normalized) {
      setError(COLOR_MESSAGE);
      return;
    }
    setError(null);
    save.mutate(normalized, {
      onSuccess: (organization) => {
        setValue(organization.branding.color ?? '');
        toast.success(COLOR_SAVED);
      },
      onError: (err) => setError(errorMessage(err, 'The colour could not be saved. Try again.')),
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <p className="text-sm font-medium text-slate-800">Colour</p>
      <div className="mt-2 flex items-end gap-3">
        <label className="shrink-0">
          <span className="sr-only">Pick the brand colour</span>
          <input
            type="color"
            value={normalized ?? saved ?? DEFAULT_COLOR}
            onChange={(event) => {
              setValue(event.target.value);
              setError(null);
            }}
            className="h-10 w-14 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
          />
        </label>
        <TextField
          label="Hex code"
          className="min-w-0 flex-1"
          value={value}
          placeholder={DEFAULT_COLOR}
          maxLength={16}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => {
            setValue(event.target.value);
            setError(null);
          }}
          error={error}
        />
      </div>
      {/* What a report's cover looks like in this colour, with the text colour chosen for it. */}
      <div
        data-testid="brand-preview"
        className="mt-3 rounded-lg px-4 py-3"
        style={{ backgroundColor: shown, color: text }}
      >
        <p className="truncate font-semibold">{organization.name}</p>
        <p className="text-sm">Social media report</p>
      </div>
      <p className="mt-1 text-xs text-slate-600">
        {`Text on it is ${text === '#ffffff' ? 'white' : 'dark'}, chosen for contrast (${ratio.toFixed(1)}:1).`}
      </p>
      <div className="mt-3 flex flex-wrap justify-end gap-2">
        {saved && (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            disabled={save.isPending}
            onClick={() =>
              save.mutate(null, {
                onSuccess: () => {
                  setValue('');
                  setError(null);
                  toast.success(COLOR_REMOVED);
                },
                onError: (err) => toastError(err, 'The colour could not be removed. Try again.'),
              })
            }
          >
            Use Herald’s colour
          </Button>
        )}
        <Button
          type="submit"
          size="sm"
          disabled={save.isPending || (normalized !== null && normalized === saved)}
        >
          {save.isPending ? (
            <Spinner className="size-4 text-white" />
          ) : (
            <Save className="size-4" aria-hidden="true" />
          )}
          Save colour
        </Button>
      </div>
    </form>
  );
}

/**
 * docs/reports.md#branding (org:manage): the organization's logo and colour, on the reports it
 * sends its clients and on the pages guests open.
 */
export function BrandingCard({ orgId }: { orgId: string }) {
  const organization = useOrganization(orgId);
  const headingId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Branding
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Your logo and colour on the reports you send clients and on the pages guests open.
      </p>
      {organization.data ? (
        <div className="mt-4 grid gap-6 sm:grid-cols-2">
          <LogoField orgId={orgId} organization={organization.data} />
          <ColorField
            key={organization.data.branding.color ?? ''}
            orgId={orgId}
            organization={organization.data}
          />
        </div>
      ) : organization.isError ? (
        <p role="alert" className="mt-4 text-sm text-red-700">
          Could not load the organization’s branding.
        </p>
      ) : (
        <LoadingIndicator label="Loading the branding" className="py-6" />
      )}
    </section>
  );
}
