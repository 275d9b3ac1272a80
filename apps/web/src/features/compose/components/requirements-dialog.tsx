import {
  DEFAULT_ACCEPTED_MIME_TYPES,
  formatFileSize,
  MAX_FILES_PER_POST,
  type MediaConstraints,
  type MediaRule,
} from '@herald/contract';
import { Button } from '@/components/ui/button';
import { Modal, ModalActions } from '@/components/ui/modal';
import type { ComposePlatform } from '../utils/compose-platforms';

const GROUPS: Array<{ key: 'image' | 'video' | 'reel'; label: string }> = [
  { key: 'image', label: 'Images' },
  { key: 'video', label: 'Videos' },
  { key: 'reel', label: 'Reels (short videos)' },
];

function ruleLines(rule: MediaRule): string[] {
  const lines = [`Types: ${rule.allowedMimeTypes.join(', ')}`];
  if (rule.maxFileSize !== undefined) lines.push(`Max size: ${formatFileSize(rule.maxFileSize)}`);
  if (rule.minDuration !== undefined && rule.maxDuration !== undefined) {
    lines.push(`Duration: ${rule.minDuration}s to ${rule.maxDuration}s`);
  } else if (rule.minDuration !== undefined) {
    lines.push(`Min duration: ${rule.minDuration}s`);
  } else if (rule.maxDuration !== undefined) {
    lines.push(`Max duration: ${rule.maxDuration}s`);
  }
  if (rule.minDimensions) {
    lines.push(`Min dimensions: ${rule.minDimensions.width}x${rule.minDimensions.height}px`);
  }
  if (rule.maxDimensions) {
    lines.push(`Max dimensions: ${rule.maxDimensions.width}x${rule.maxDimensions.height}px`);
  }
  if (rule.maxCount !== undefined) lines.push(`At most ${rule.maxCount} per post`);
  return lines;
}

const countingNotes: Record<string, string> = {
  'x-weighted': 'counted the way X counts: every link counts as 23, some characters as 2',
  'utf8-bytes': 'counted in bytes',
  'emoji-bytes': 'characters; an emoji counts as several',
  utf16: 'counted in UTF-16 units',
  codepoints: 'characters',
};

function PlatformRules({ constraints }: { constraints: MediaConstraints | null }) {
  const groups = GROUPS.filter((group) => constraints?.[group.key]);
  const text = constraints?.text;
  return (
    <dl className="space-y-3 text-sm">
      {text && (
        <div>
          <dt className="font-medium text-slate-900">Text</dt>
          <dd className="text-slate-700">
            Up to {text.maxLength} ({countingNotes[text.counting] ?? 'characters'}).{' '}
            {text.textOnlyAllowed === false
              ? 'Every post needs at least one image or video.'
              : 'Text-only posts are allowed.'}
          </dd>
        </div>
      )}
      {groups.length === 0 ? (
        <div>
          <dt className="font-medium text-slate-900">Media</dt>
          <dd className="text-slate-700">Types: {DEFAULT_ACCEPTED_MIME_TYPES.join(', ')}</dd>
        </div>
      ) : (
        groups.map((group) => (
          <div key={group.key}>
            <dt className="font-medium text-slate-900">{group.label}</dt>
            {ruleLines(constraints?.[group.key] as MediaRule).map((line) => (
              <dd key={line} className="text-slate-700">
                {line}
              </dd>
            ))}
          </div>
        ))
      )}
      {constraints?.maxMediaPerPost !== undefined && (
        <div>
          <dt className="font-medium text-slate-900">Per post</dt>
          <dd className="text-slate-700">At most {constraints.maxMediaPerPost} files</dd>
        </div>
      )}
    </dl>
  );
}

interface RequirementsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The networks whose rules to show; none shows the defaults. */
  platforms: readonly ComposePlatform[];
}

/** docs/product.md#create-post "platform requirements": what each network accepts, from its mediaConstraints. */
export function RequirementsDialog({
  open,
  onOpenChange,
  platforms: accounts,
}: RequirementsDialogProps) {
  // Rules are the network's: two accounts of one network show them once.
  const platforms = accounts.filter(
    (p, index) => accounts.findIndex((o) => o.platformId === p.platformId) === index,
  );
  const [only] = platforms;
  const title = platforms.length === 1 && only ? `${only.name} requirements` : 'Media requirements';
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={`Every post carries at most ${MAX_FILES_PER_POST} files in total.`}
    >
      {platforms.length === 0 ? (
        <PlatformRules constraints={null} />
      ) : (
        <div className="space-y-5">
          {platforms.map((platform) => (
            <section key={platform.id} aria-label={platform.name}>
              {platforms.length > 1 && (
                <h3 className="mb-2 font-semibold text-slate-900">{platform.name}</h3>
              )}
              <PlatformRules constraints={platform.constraints} />
            </section>
          ))}
        </div>
      )}
      <ModalActions>
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Close
        </Button>
      </ModalActions>
    </Modal>
  );
}
