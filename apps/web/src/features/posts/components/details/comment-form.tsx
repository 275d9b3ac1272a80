import { useId, useState, type ChangeEvent, type FormEvent, type KeyboardEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/cn';

/** docs/product.md#constants: the reply box grows with its text up to this height, then scrolls. */
export const REPLY_MAX_HEIGHT_PX = 120;

interface CommentFormProps {
  /** The field's accessible name, e.g. "Reply to Ada". */
  label: string;
  placeholder?: string;
  initialValue?: string;
  /** The send button's text and accessible name. */
  submitLabel: string;
  /** Said when the text is blank (docs/product.md#publish-and-reply-rules: 'Reply cannot be empty.'). */
  emptyMessage: string;
  isPending: boolean;
  /** Gets the trimmed text; the parent closes or resets the form once it is sent. */
  onSubmit: (message: string) => void;
  onCancel?: () => void;
}

/**
 * A short text for a comment thread (a reply, or an edit). Enter sends and Shift+Enter starts a
 * new line; send is disabled while the text is blank, and Enter on a blank text says why.
 */
export function CommentForm({
  label,
  placeholder,
  initialValue = '',
  submitLabel,
  emptyMessage,
  isPending,
  onSubmit,
  onCancel,
}: CommentFormProps) {
  const errorId = useId();
  const [value, setValue] = useState(initialValue);
  const [error, setError] = useState<string | null>(null);
  const isBlank = value.trim() === '';

  const send = () => {
    if (isPending) return;
    const message = value.trim();
    if (!message) {
      setError(emptyMessage);
      return;
    }
    setError(null);
    onSubmit(message);
  };

  const onChange = (event: ChangeEvent<HTMLTextAreaElement>) => {
    setValue(event.target.value);
    if (error && event.target.value.trim()) setError(null);
    // Grow with the text, up to the maximum height.
    const field = event.target;
    field.style.height = 'auto';
    field.style.height = `${Math.min(field.scrollHeight, REPLY_MAX_HEIGHT_PX)}px`;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    send();
  };

  const onFormSubmit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };

  return (
    <form onSubmit={onFormSubmit} className="flex flex-col gap-1">
      <div className="flex items-end gap-2">
        <textarea
          aria-label={label}
          value={value}
          placeholder={placeholder}
          rows={1}
          autoFocus
          onChange={onChange}
          onKeyDown={onKeyDown}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          style={{ maxHeight: REPLY_MAX_HEIGHT_PX }}
          className={cn(
            'block min-h-9 w-full resize-none overflow-y-auto rounded-lg border px-3 py-1.5 text-sm text-slate-900 shadow-sm',
            'focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200',
            error ? 'border-red-400' : 'border-slate-300',
          )}
        />
        {onCancel && (
          <Button variant="ghost" size="sm" onClick={onCancel} disabled={isPending}>
            Cancel
          </Button>
        )}
        <Button type="submit" size="sm" disabled={isBlank || isPending}>
          {isPending && <Spinner className="size-3 text-white" />}
          {submitLabel}
        </Button>
      </div>
      {error && (
        <p id={errorId} role="alert" className="text-xs text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}
