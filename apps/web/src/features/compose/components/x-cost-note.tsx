import { supportsFirstComment, supportsThread, xCostSentence } from '@herald/contract';
import type { ComposePlatform } from '../utils/compose-platforms';
import type { AccountFollowUps } from './use-follow-ups';

/** The posts publishing creates on one account: the post, its further parts, its first comment. */
export function postsOf(platform: ComposePlatform, text: string, followUps?: AccountFollowUps) {
  const parts = supportsThread(platform.name)
    ? (followUps?.parts ?? []).filter((p) => p.trim())
    : [];
  const comment = supportsFirstComment(platform.name) ? (followUps?.firstComment ?? '').trim() : '';
  return [text, ...parts, ...(comment ? [comment] : [])];
}

/**
 * docs/product.md#x-cost: X bills the organization's X app for every post it creates, far more
 * when the post holds a link, so the composer says what each selected X account's post will cost
 * as it is written (X's prices are in the contract's x-pricing.ts).
 */
export function XCostNote({
  selected,
  textFor,
  followUps,
}: {
  selected: readonly ComposePlatform[];
  textFor: (platformId: string) => string;
  followUps: Record<string, AccountFollowUps>;
}) {
  const xAccounts = selected.filter((p) => p.name === 'X');
  if (xAccounts.length === 0) return null;
  return (
    <section
      aria-label="What X charges"
      className="rounded-xl border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700"
    >
      {xAccounts.map((p) => (
        <p key={p.id} data-testid={`x-cost-${p.id}`}>
          {xAccounts.length > 1 || p.label !== 'X' ? (
            <span className="font-medium text-slate-900">{`${p.label}: `}</span>
          ) : null}
          {xCostSentence(postsOf(p, textFor(p.id), followUps[p.id]))}
        </p>
      ))}
    </section>
  );
}
