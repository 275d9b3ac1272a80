import type { LinkTracking } from '@herald/contract';
import { useRef, type ReactNode } from 'react';
import { SegmentedTabs } from '@/components/ui/segmented-tabs';
import { TextField } from '@/components/ui/form-field';
import { cn } from '@/lib/cn';
import type { ComposePlatform } from '../utils/compose-platforms';
import type { ContentMode } from '../utils/compose-state';
import { CharacterCount, CharacterCounts } from './character-count';
import { EmojiPicker } from './emoji-picker';
import { HashtagGroupsPicker } from './hashtag-groups';

/** Per account where a network has several connected accounts; else per platform, as before. */
const tabsFor = (perAccount: boolean): Array<{ value: ContentMode; label: string }> => [
  { value: 'shared', label: 'Shared Content' },
  { value: 'custom', label: perAccount ? 'Customize per Account' : 'Customize per Platform' },
];
const tabId = (mode: ContentMode) => `content-tab-${mode}`;
const PANEL_ID = 'content-panel';

/** The id of a text box, so a failed submit can move focus to it. */
export const textFieldId = (platformId: string | null) =>
  platformId ? `post-text-${platformId}` : 'post-text-shared';

const textareaClass =
  'block min-h-36 w-full rounded-lg border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ' +
  'placeholder:text-slate-400 focus:border-indigo-500 focus:outline-2 focus:outline-indigo-200 ' +
  'disabled:bg-slate-50';

function TextBox({
  id,
  label,
  value,
  onChange,
  errors,
  footer,
  disabled,
  orgId,
  target,
}: {
  /** The organization whose hashtag groups are offered. */
  orgId: string;
  /** The account the text is for, in Customize per Account. */
  target?: string;
  id: string;
  label: string;
  value: string;
  onChange: (text: string) => void;
  errors: string[];
  footer: ReactNode;
  disabled?: boolean;
}) {
  const errorId = `${id}-errors`;
  const box = useRef<HTMLTextAreaElement>(null);
  // Goes where the cursor is (or replaces the selection), and the cursor moves past it.
  const insert = (given: string) => {
    const field = box.current;
    const start = field?.selectionStart ?? value.length;
    const end = field?.selectionEnd ?? value.length;
    // A piece that asks for a space before it gets none at the start of a line or after one.
    const piece =
      given.startsWith(' ') && (start === 0 || /\s/.test(value[start - 1] ?? ''))
        ? given.slice(1)
        : given;
    onChange(value.slice(0, start) + piece + value.slice(end));
    requestAnimationFrame(() => {
      field?.focus();
      field?.setSelectionRange(start + piece.length, start + piece.length);
    });
  };
  return (
    <div>
      <div className="flex items-end justify-between gap-2">
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">
          {label}
        </label>
        <div className="flex items-center gap-1">
          <HashtagGroupsPicker orgId={orgId} target={target} onPick={insert} disabled={disabled} />
          <EmojiPicker target={target} onPick={insert} disabled={disabled} />
        </div>
      </div>
      <textarea
        ref={box}
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) => onChange(event.target.value)}
        placeholder="What do you want to share?"
        aria-invalid={errors.length > 0 || undefined}
        aria-describedby={errors.length > 0 ? errorId : undefined}
        className={cn(
          textareaClass,
          'mt-1',
          errors.length > 0 ? 'border-red-400' : 'border-slate-300',
        )}
      />
      <div className="mt-1">{footer}</div>
      {errors.length > 0 && (
        <ul id={errorId} className="mt-1 space-y-0.5 text-sm text-red-700">
          {errors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

interface ContentEditorProps {
  orgId: string;
  mode: ContentMode;
  onModeChange: (mode: ContentMode) => void;
  title: string;
  onTitleChange: (title: string) => void;
  sharedText: string;
  onSharedTextChange: (text: string) => void;
  customTexts: Record<string, string>;
  onCustomTextChange: (platformId: string, text: string) => void;
  selected: readonly ComposePlatform[];
  /** Over-limit messages by platform id. */
  textErrors: Record<string, string>;
  /** Messages from the last Create Post press, by platform id ('shared' for the shared text). */
  submitErrors: Record<string, string>;
  /** The post's link tracking: counters count the texts with tracked links, as sent. */
  tracking?: LinkTracking | null;
  disabled?: boolean;
}

/** The post's text: Shared Content or Customize per Platform (docs/product.md#create-post), with live counters. */
export function ContentEditor(props: ContentEditorProps) {
  const { mode, onModeChange, selected, textErrors, submitErrors, disabled } = props;
  const sharedErrors = [
    ...(submitErrors.shared ? [submitErrors.shared] : []),
    ...selected.flatMap((p) => (textErrors[p.id] ? [textErrors[p.id] as string] : [])),
  ];

  return (
    <section
      aria-labelledby="content-heading"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="content-heading" className="text-base font-semibold text-slate-900">
        Content
      </h2>
      <TextField
        className="mt-4"
        label="Title (optional)"
        hint="Helps your team find the post in the content library."
        value={props.title}
        maxLength={200}
        disabled={disabled}
        onChange={(event) => props.onTitleChange(event.target.value)}
      />
      <SegmentedTabs
        label="How the text is written"
        tabs={tabsFor(selected.some((p) => p.label !== p.name))}
        value={mode}
        onChange={onModeChange}
        idOf={tabId}
        panelId={PANEL_ID}
        disabled={disabled}
        className="mt-5 w-fit"
      />
      <div id={PANEL_ID} role="tabpanel" aria-labelledby={tabId(mode)} className="mt-4 space-y-5">
        {mode === 'shared' ? (
          <TextBox
            orgId={props.orgId}
            id={textFieldId(null)}
            label="Post content"
            value={props.sharedText}
            onChange={props.onSharedTextChange}
            errors={sharedErrors}
            disabled={disabled}
            footer={
              <CharacterCounts
                platforms={selected}
                text={props.sharedText}
                tracking={props.tracking}
              />
            }
          />
        ) : selected.length === 0 ? (
          <p className="text-sm text-slate-600">
            Select the accounts first, then write a text for each of them.
          </p>
        ) : (
          selected.map((platform) => {
            const text = props.customTexts[platform.id] ?? '';
            const errors = [submitErrors[platform.id], textErrors[platform.id]].filter(
              (error): error is string => Boolean(error),
            );
            return (
              <TextBox
                orgId={props.orgId}
                target={platform.label}
                key={platform.id}
                id={textFieldId(platform.id)}
                label={`${platform.label} content`}
                value={text}
                onChange={(next) => props.onCustomTextChange(platform.id, next)}
                errors={errors}
                disabled={disabled}
                footer={
                  <p className="text-xs text-slate-700">
                    <span className="sr-only">{`${platform.label} characters: `}</span>
                    <CharacterCount platform={platform} text={text} tracking={props.tracking} />
                  </p>
                }
              />
            );
          })
        )}
      </div>
    </section>
  );
}
