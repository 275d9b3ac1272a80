import { imagesWithoutAltText } from '@herald/contract';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { cn } from '@/lib/cn';
import type { MediaItem } from '../utils/media-files';

/**
 * docs/product.md#alt-text: the "Alt" button of an image tile. It reads "Alt ✓" once the image
 * has a description, and opens a field limited to what the selected networks take.
 */
export function AltTextButton({
  item,
  limit,
  onSave,
  disabled,
}: {
  item: MediaItem;
  limit: number;
  onSave: (text: string) => void;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState(item.altText ?? '');
  const fieldId = useId();
  const has = Boolean(item.altText?.trim());
  const over = text.length > limit;
  return (
    <>
      <button
        type="button"
        disabled={disabled}
        aria-label={`${has ? 'Edit' : 'Add'} alt text for ${item.facts.fileName}`}
        title={has ? item.altText : 'Describe this image for people who cannot see it'}
        onClick={() => {
          setText(item.altText ?? '');
          setOpen(true);
        }}
        className={cn(
          'rounded px-1.5 py-0.5 text-[11px] font-bold tracking-wide uppercase focus-visible:outline-2 focus-visible:outline-indigo-600',
          has
            ? 'bg-emerald-50 text-emerald-800 hover:bg-emerald-100'
            : 'bg-amber-50 text-amber-800 hover:bg-amber-100',
        )}
      >
        Alt{has ? ' ✓' : ''}
      </button>
      <Modal
        open={open}
        onOpenChange={setOpen}
        title="Alt text"
        description={`Describe ${item.facts.fileName} for people who use screen readers.`}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            // The dialog is portaled, but React still bubbles its submit to the composer's form.
            event.stopPropagation();
            if (over) return;
            onSave(text.trim());
            setOpen(false);
          }}
        >
          {item.previewUrl && (
            <img
              src={item.previewUrl}
              alt=""
              className="mb-3 max-h-40 w-full rounded-lg bg-slate-100 object-contain"
            />
          )}
          <label htmlFor={fieldId} className="block text-sm font-medium text-slate-800">
            Description
          </label>
          <textarea
            id={fieldId}
            value={text}
            onChange={(event) => setText(event.target.value)}
            rows={4}
            aria-describedby={`${fieldId}-count`}
            aria-invalid={over || undefined}
            placeholder="For example: A golden retriever catching a frisbee on a beach."
            className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200"
          />
          <p
            id={`${fieldId}-count`}
            className={cn('mt-1 text-xs', over ? 'text-red-700' : 'text-slate-600')}
          >
            {over
              ? `${text.length - limit} characters over the limit of ${limit}.`
              : `${text.length} of ${limit} characters.`}
          </p>
          <div className="mt-4 flex justify-end gap-2">
            <Button variant="ghost" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={over}>
              Save alt text
            </Button>
          </div>
        </form>
      </Modal>
    </>
  );
}

/** The sentence of the reminder: "1 image has no alt text", "2 images have no alt text". */
export function altTextReminder(count: number): string | null {
  if (count === 0) return null;
  return count === 1
    ? '1 image has no alt text. Describe it for people who cannot see it.'
    : `${count} images have no alt text. Describe them for people who cannot see them.`;
}

/** docs/product.md#alt-text: a reminder, never a block. */
export function AltTextReminder({ items }: { items: readonly MediaItem[] }) {
  const sentence = altTextReminder(
    imagesWithoutAltText(items.map((i) => ({ kind: i.kind ?? '', altText: i.altText }))),
  );
  if (!sentence) return null;
  return (
    <p
      role="status"
      className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200"
    >
      {sentence}
    </p>
  );
}
