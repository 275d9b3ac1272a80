import type { Post } from '@herald/contract';
import { useId } from 'react';
import { NetworkMark } from '@/components/ui/network-mark';
import { accountName } from '../post-accounts';

/**
 * The per-network and per-account texts of a post that has them (everything but `default`):
 * `network` names the network's mark, `name` the text ("Facebook (Harbor Cafe)" for an account).
 */
export function customizedTexts(
  post: Post,
): Array<{ id: string; name: string; network: string; text: string }> {
  if (typeof post.content === 'string') return [];
  return Object.entries(post.content)
    .filter(([id]) => id !== 'default')
    .map(([id, text]) => {
      const account = (post.accounts ?? []).find((a) => a.id === id);
      if (account) {
        return {
          id,
          name: `${account.platformName} (${accountName(account)})`,
          network: account.platformName,
          text,
        };
      }
      const name = post.platforms.find((platform) => platform.id === id)?.name ?? id;
      return { id, name, network: name, text };
    });
}

const panel = 'rounded-2xl border border-slate-200 bg-white p-5 shadow-sm';

/**
 * The post's text: the shared one, and below it the texts customized for one network or account.
 * Edit Post (the header) opens the composer, where every one of them can change.
 */
export function ContentPanel({ post, text }: { post: Post; text: string }) {
  const headingId = useId();
  const custom = customizedTexts(post);
  return (
    <section aria-labelledby={headingId} className={panel}>
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Content
      </h2>
      <p className="mt-3 text-sm whitespace-pre-wrap text-slate-800">
        {text || <span className="text-slate-500 italic">No content</span>}
      </p>
      {custom.length > 0 && (
        <div className="mt-5 border-t border-slate-100 pt-4">
          <h3 className="text-sm font-semibold text-slate-900">
            Customized per platform or account
          </h3>
          <ul className="mt-2 flex flex-col gap-3">
            {custom.map((entry) => (
              <li key={entry.id} aria-label={`Text for ${entry.name}`} className="flex gap-3">
                <NetworkMark name={entry.network} label="name" size="sm" />
                {entry.name !== entry.network && (
                  <span
                    className="line-clamp-1 max-w-40 shrink-0 break-all text-xs text-slate-600"
                    title={entry.name}
                  >
                    {entry.name.slice(entry.network.length + 2, -1)}
                  </span>
                )}
                <p className="min-w-0 flex-1 text-sm whitespace-pre-wrap text-slate-700">
                  {entry.text || <span className="text-slate-500 italic">No content</span>}
                </p>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
