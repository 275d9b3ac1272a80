import {
  firstCommentIsPost,
  firstCommentLimitOf,
  MAX_THREAD_PARTS,
  supportsFirstComment,
  supportsThread,
} from '@herald/contract';
import { ChevronDown } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import type { ComposePlatform } from '../utils/compose-platforms';
import { CharacterCount } from './character-count';
import { emptyFollowUps, type AccountFollowUps } from './use-follow-ups';

const fieldClass =
  'mt-1 block min-h-20 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm ' +
  'text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:outline-2 ' +
  'focus:outline-indigo-200 disabled:bg-slate-50';

const partFieldId = (accountId: string, n: number) => `follow-up-${accountId}-part-${n}`;
const commentFieldId = (accountId: string) => `follow-up-${accountId}-comment`;

interface AccountProps {
  platform: ComposePlatform;
  value: AccountFollowUps;
  onChange: (next: AccountFollowUps) => void;
  problems: string[];
  disabled?: boolean;
}

/** One account's thread parts (X, Threads) and first comment (X, Instagram, Facebook, LinkedIn). */
function AccountFollowUpsFields({ platform, value, onChange, problems, disabled }: AccountProps) {
  const thread = supportsThread(platform.name);
  const comment = supportsFirstComment(platform.name);
  const total = value.parts.length + 1;
  const setPart = (index: number, text: string) =>
    onChange({ ...value, parts: value.parts.map((p, i) => (i === index ? text : p)) });
  const removePart = (index: number) =>
    onChange({ ...value, parts: value.parts.filter((_, i) => i !== index) });
  const addPart = () => {
    onChange({ ...value, parts: [...value.parts, ''] });
    setTimeout(() => document.getElementById(partFieldId(platform.id, total + 1))?.focus());
  };
  return (
    <fieldset className="min-w-0 rounded-xl border border-slate-200 p-4">
      <legend className="px-1 text-sm font-semibold text-slate-900">{platform.label}</legend>
      {thread ? (
        <div className="space-y-3">
          <p className="text-xs text-slate-600">
            {value.parts.length === 0
              ? 'Add parts to make this post a thread: each part replies to the one before.'
              : `A thread of ${total} parts. Part 1 is the post’s text above.`}
          </p>
          <ol className="space-y-3" aria-label={`${platform.label} thread parts`}>
            {value.parts.map((text, i) => {
              const n = i + 2;
              const id = partFieldId(platform.id, n);
              return (
                <li key={n} className="min-w-0">
                  <div className="flex items-center justify-between gap-2">
                    <label htmlFor={id} className="text-sm font-medium text-slate-800">
                      {`Part ${n} of ${total}`}
                    </label>
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      disabled={disabled}
                      aria-label={`Remove part ${n} for ${platform.label}`}
                      onClick={() => removePart(i)}
                    >
                      Remove
                    </Button>
                  </div>
                  <textarea
                    id={id}
                    value={text}
                    disabled={disabled}
                    onChange={(e) => setPart(i, e.target.value)}
                    placeholder="What comes next?"
                    className={fieldClass}
                  />
                  <p className="mt-1 text-xs text-slate-700">
                    <span className="sr-only">{`Part ${n} characters: `}</span>
                    <CharacterCount platform={platform} text={text} />
                  </p>
                </li>
              );
            })}
          </ol>
          <Button
            type="button"
            variant="secondary"
            size="sm"
            disabled={disabled || total >= MAX_THREAD_PARTS}
            onClick={addPart}
          >
            {`Add part ${total + 1}`}
          </Button>
        </div>
      ) : null}
      {comment ? (
        <div className={cn(thread && 'mt-4')}>
          <label
            htmlFor={commentFieldId(platform.id)}
            className="block text-sm font-medium text-slate-800"
          >
            First comment (optional)
          </label>
          <p className="text-xs text-slate-600">
            {firstCommentIsPost(platform.name)
              ? 'Published as your own reply right after the post.'
              : 'Published on the post right after it goes out.'}
          </p>
          <textarea
            id={commentFieldId(platform.id)}
            value={value.firstComment}
            disabled={disabled}
            onChange={(e) => onChange({ ...value, firstComment: e.target.value })}
            placeholder="Links, hashtags or a question for your audience"
            className={fieldClass}
          />
          <p className="mt-1 text-xs text-slate-700">
            <span className="sr-only">First comment characters: </span>
            <CharacterCount
              platform={platform}
              text={value.firstComment}
              limit={firstCommentLimitOf(platform.name, platform.constraints)}
            />
          </p>
        </div>
      ) : null}
      {problems.length > 0 ? (
        <ul className="mt-2 space-y-0.5 text-sm text-red-700">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
    </fieldset>
  );
}

interface FollowUpsSectionProps {
  /** The selected accounts whose network takes parts or a first comment. */
  offered: readonly ComposePlatform[];
  values: Record<string, AccountFollowUps>;
  onChange: (integrationId: string, next: AccountFollowUps) => void;
  issues: Record<string, string[]>;
  disabled?: boolean;
}

/** Threads and first comments (docs/product.md#threads-and-first-comments), per account. */
export function FollowUpsSection({
  offered,
  values,
  onChange,
  issues,
  disabled,
}: FollowUpsSectionProps) {
  // Folded until used: most posts have neither, and the form stays short.
  const [open, setOpen] = useState(false);
  if (offered.length === 0) return null;
  const inUse = offered.some((p) => {
    const v = values[p.id];
    return Boolean(v && (v.parts.some((t) => t.trim()) || v.firstComment.trim()));
  });
  const hasIssues = Object.keys(issues).length > 0;
  const expanded = open || inUse || hasIssues;
  return (
    <section
      aria-labelledby="follow-ups-heading"
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="follow-ups-heading" className="text-base font-semibold text-slate-900">
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls="follow-ups-body"
          // Open while something is written or wrong in it: nothing in use is ever hidden.
          disabled={inUse || hasIssues}
          onClick={() => setOpen((now) => !now)}
          className="flex w-full items-center justify-between gap-2 text-left focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          Thread and first comment
          <ChevronDown
            className={cn('size-4 text-slate-500 transition-transform', expanded && 'rotate-180')}
            aria-hidden="true"
          />
        </button>
      </h2>
      {!expanded && (
        <p className="mt-1 text-sm text-slate-600">
          Add more parts as a thread, or a first comment, per account.
        </p>
      )}
      <div id="follow-ups-body" hidden={!expanded} className="mt-4 space-y-4">
        {offered.map((platform) => (
          <AccountFollowUpsFields
            key={platform.id}
            platform={platform}
            value={values[platform.id] ?? emptyFollowUps()}
            onChange={(next) => onChange(platform.id, next)}
            problems={issues[platform.id] ?? []}
            disabled={disabled}
          />
        ))}
      </div>
    </section>
  );
}

/** The preview's view of what follows each post: its parts in order, then its first comment. */
export function FollowUpsPreview({
  offered,
  values,
}: {
  offered: readonly ComposePlatform[];
  values: Record<string, AccountFollowUps>;
}) {
  const shown = offered.filter((p) => {
    const v = values[p.id];
    return v && (v.parts.some((t) => t.trim()) || v.firstComment.trim());
  });
  if (shown.length === 0) return null;
  return (
    <section
      aria-label="Thread and first comment preview"
      className="mt-4 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      {shown.map((platform) => {
        const v = values[platform.id]!;
        const total = v.parts.length + 1;
        return (
          <div key={platform.id} className="mb-3 last:mb-0">
            <h3 className="text-sm font-semibold text-slate-900">{`${platform.label}: what follows the post`}</h3>
            <ol className="mt-2 space-y-2 border-l-2 border-slate-200 pl-3">
              {supportsThread(platform.name) &&
                v.parts.map((text, i) => (
                  <li key={i} className="text-sm break-words whitespace-pre-wrap text-slate-800">
                    <span className="block text-xs font-medium text-slate-500">{`Part ${i + 2} of ${total}, replying to part ${i + 1}`}</span>
                    {text || <span className="text-slate-400">(empty)</span>}
                  </li>
                ))}
              {supportsFirstComment(platform.name) && v.firstComment.trim() ? (
                <li className="text-sm break-words whitespace-pre-wrap text-slate-800">
                  <span className="block text-xs font-medium text-slate-500">First comment</span>
                  {v.firstComment}
                </li>
              ) : null}
            </ol>
          </div>
        );
      })}
    </section>
  );
}
