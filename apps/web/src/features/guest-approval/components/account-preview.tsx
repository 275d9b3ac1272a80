import type { GuestAccountPost } from '@herald/contract';
import { NetworkPreview, type PreviewMediaItem } from '@/components/post-previews';
import { NetworkMark } from '@/components/ui/network-mark';

/** A file of the link as the previews draw it: served through the link, never by signed URL. */
function previewItem(file: GuestAccountPost['media'][number]): PreviewMediaItem {
  return {
    id: file.id,
    kind: file.kind,
    previewUrl: file.url,
    facts: { fileName: file.fileName },
    ...(file.altText ? { altText: file.altText } : {}),
  };
}

/**
 * One account's post as the network will show it (the composer's own previews), then what follows
 * it there: the thread's further parts and the first comment, in publishing order.
 */
export function AccountPreview({ account }: { account: GuestAccountPost }) {
  const total = account.parts.length + 1;
  const title = `${account.network} · ${account.accountName}`;
  return (
    <article
      aria-label={`${title} preview`}
      className="overflow-hidden rounded-2xl border border-slate-200 shadow-sm"
    >
      <header className="flex min-w-0 items-center gap-2 border-b border-slate-200 bg-slate-50 px-3 py-2 text-xs font-semibold text-slate-700">
        <NetworkMark name={account.network} size="xs" />
        <span className="truncate">{title}</span>
      </header>
      <NetworkPreview
        platform={{
          name: account.network,
          constraints: null,
          account: {
            name: account.accountName,
            username: account.username,
            pictureUrl: account.pictureUrl,
          },
        }}
        text={account.text}
        media={account.media.map(previewItem)}
        contentWarning={account.contentWarning ?? undefined}
      />
      {(account.parts.length > 0 || account.firstComment) && (
        <ol
          aria-label={`What follows the post on ${account.network}`}
          className="space-y-3 border-t border-slate-200 bg-white px-4 py-3"
        >
          {account.parts.map((text, index) => (
            <li
              key={index}
              className="border-l-2 border-slate-200 pl-3 text-sm break-words whitespace-pre-wrap text-slate-800"
            >
              <span className="block text-xs font-medium text-slate-500">
                {`Part ${index + 2} of ${total}, replying to part ${index + 1}`}
              </span>
              {text}
            </li>
          ))}
          {account.firstComment && (
            <li className="border-l-2 border-slate-200 pl-3 text-sm break-words whitespace-pre-wrap text-slate-800">
              <span className="block text-xs font-medium text-slate-500">First comment</span>
              {account.firstComment}
            </li>
          )}
        </ol>
      )}
    </article>
  );
}
