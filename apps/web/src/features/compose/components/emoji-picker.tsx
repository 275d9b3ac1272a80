import { Smile } from 'lucide-react';
import { useEffect, useId, useState } from 'react';

/** A compact set of the emoji social posts use most, by group, each with the name read out. */
export const EMOJI_GROUPS: ReadonlyArray<{ name: string; emoji: ReadonlyArray<[string, string]> }> =
  [
    {
      name: 'Smileys',
      emoji: [
        ['😀', 'grinning face'],
        ['😂', 'face with tears of joy'],
        ['😊', 'smiling face with smiling eyes'],
        ['😍', 'smiling face with heart-eyes'],
        ['😎', 'smiling face with sunglasses'],
        ['🤔', 'thinking face'],
        ['😮', 'face with open mouth'],
        ['😢', 'crying face'],
        ['🙌', 'raising hands'],
        ['🤩', 'star-struck'],
      ],
    },
    {
      name: 'Gestures',
      emoji: [
        ['👍', 'thumbs up'],
        ['👏', 'clapping hands'],
        ['🙏', 'folded hands'],
        ['👋', 'waving hand'],
        ['💪', 'flexed biceps'],
        ['👉', 'backhand index pointing right'],
        ['👇', 'backhand index pointing down'],
        ['🤝', 'handshake'],
      ],
    },
    {
      name: 'Celebration',
      emoji: [
        ['🎉', 'party popper'],
        ['🥳', 'partying face'],
        ['🎁', 'wrapped gift'],
        ['🏆', 'trophy'],
        ['✨', 'sparkles'],
        ['🔥', 'fire'],
        ['🚀', 'rocket'],
        ['⭐', 'star'],
      ],
    },
    {
      name: 'Hearts and symbols',
      emoji: [
        ['❤️', 'red heart'],
        ['💙', 'blue heart'],
        ['💚', 'green heart'],
        ['💯', 'hundred points'],
        ['✅', 'check mark button'],
        ['❗', 'exclamation mark'],
        ['➡️', 'right arrow'],
        ['📣', 'megaphone'],
      ],
    },
    {
      name: 'Things and places',
      emoji: [
        ['📅', 'calendar'],
        ['⏰', 'alarm clock'],
        ['📸', 'camera with flash'],
        ['🎥', 'movie camera'],
        ['💡', 'light bulb'],
        ['🛒', 'shopping cart'],
        ['☕', 'hot beverage'],
        ['🍕', 'pizza'],
        ['🌍', 'globe showing Europe-Africa'],
        ['☀️', 'sun'],
      ],
    },
  ];

/**
 * docs/product.md#emoji-picker: a button beside a text that opens the emoji grid; a pick is
 * inserted where the cursor was and the panel stays open for the next one (Escape closes it).
 */
export function EmojiPicker({
  target,
  onPick,
  disabled,
}: {
  /**
   * The account whose text it is, in Customize per Account ("Add emoji for X"); the button's
   * name never repeats the text's label, which would make the label name two controls.
   */
  target?: string;
  onPick: (emoji: string) => void;
  disabled?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  // The focus goes back to the text after each pick, so Escape is heard from anywhere.
  useEffect(() => {
    if (!open) return;
    const close = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('keydown', close);
    return () => document.removeEventListener('keydown', close);
  }, [open]);
  return (
    <div className="relative">
      <button
        type="button"
        aria-label={target ? `Add emoji for ${target}` : 'Add emoji'}
        aria-expanded={open}
        aria-controls={panelId}
        disabled={disabled}
        onClick={() => setOpen((now) => !now)}
        className="inline-flex size-8 items-center justify-center rounded-md text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <Smile className="size-4" aria-hidden="true" />
      </button>
      {open && (
        <div
          id={panelId}
          role="group"
          aria-label="Emoji"
          className="absolute right-0 z-20 mt-1 w-72 rounded-xl border border-slate-200 bg-white p-3 shadow-lg"
        >
          {EMOJI_GROUPS.map((group) => (
            <div key={group.name} className="mb-2 last:mb-0">
              <p className="text-xs font-medium text-slate-600">{group.name}</p>
              <div className="mt-1 flex flex-wrap gap-0.5">
                {group.emoji.map(([emoji, name]) => (
                  <button
                    key={emoji}
                    type="button"
                    aria-label={name}
                    title={name}
                    onClick={() => onPick(emoji)}
                    className="inline-flex size-8 items-center justify-center rounded-md text-lg hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
                  >
                    {emoji}
                  </button>
                ))}
              </div>
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
