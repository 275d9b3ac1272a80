import { Smile } from 'lucide-react';
import { useState } from 'react';
import { TextToolPopover } from './text-tool-popover';

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
  return (
    <TextToolPopover
      label={target ? `Add emoji for ${target}` : 'Add emoji'}
      icon={Smile}
      panelLabel="Emoji"
      panelWidth="w-72"
      open={open}
      onOpenChange={setOpen}
      disabled={disabled}
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
    </TextToolPopover>
  );
}
