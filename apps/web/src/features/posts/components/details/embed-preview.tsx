import type { PlatformPost, Post } from '@herald/contract';
import { ExternalLink } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Alert } from '@/components/ui/alert';
import { LoadingIndicator } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { useFacebookPermalink, usePostEmbed } from '../../api/embeds';
import {
  chooseEmbed,
  facebookEmbedUrl,
  FACEBOOK_EMBED_FAILED,
  instagramEmbedUrl,
  INSTAGRAM_EMBED_FAILED,
  INSTAGRAM_EMBED_VERSION,
  isEmbeddableShortcode,
} from './embed-choice';

/**
 * The providers' own embed pages. Sandboxed: their scripts run in their own origin (never ours),
 * and links in them may open in a new tab; they cannot navigate this page or submit forms.
 */
const SANDBOX = 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox';

function EmbedFrame({
  src,
  title,
  className,
  instagramVersion,
}: {
  src: string;
  title: string;
  className: string;
  instagramVersion?: number;
}) {
  return (
    <iframe
      src={src}
      title={title}
      sandbox={SANDBOX}
      loading="lazy"
      referrerPolicy="strict-origin-when-cross-origin"
      allow="encrypted-media; fullscreen; picture-in-picture"
      allowFullScreen
      data-instgrm-version={instagramVersion}
      className={cn('w-full rounded-lg border border-slate-200 bg-white', className)}
    />
  );
}

function PermalinkLink({ href, platformName }: { href: string; platformName: string }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noreferrer"
      className="inline-flex items-center gap-1 text-sm font-semibold text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      View the post on {platformName}
      <ExternalLink className="size-3.5" aria-hidden="true" />
    </a>
  );
}

function Loading({ platformName }: { platformName: string }) {
  return (
    <LoadingIndicator label={`Loading the ${platformName} preview`} className="justify-start" />
  );
}

function InstagramEmbed({
  orgId,
  post,
  target,
}: {
  orgId: string;
  post: Post;
  target: PlatformPost;
}) {
  const embed = usePostEmbed(orgId, post.id, target.platformId);
  if (embed.isPending) return <Loading platformName="Instagram" />;
  if (embed.isError) return <Alert>{errorMessage(embed.error, INSTAGRAM_EMBED_FAILED)}</Alert>;
  const { shortcode } = embed.data;
  if (isEmbeddableShortcode(shortcode)) {
    return (
      <EmbedFrame
        src={instagramEmbedUrl(shortcode)}
        title="Instagram post preview"
        instagramVersion={INSTAGRAM_EMBED_VERSION}
        className="h-[640px] max-w-[540px]"
      />
    );
  }
  // Only the numeric media id is known: Instagram cannot embed by it.
  const permalink = embed.data.permalink ?? target.permalink;
  return (
    <div className="flex flex-col gap-2 text-sm text-slate-700">
      <p>Instagram cannot show a preview of this post here.</p>
      {permalink && <PermalinkLink href={permalink} platformName="Instagram" />}
    </div>
  );
}

function FacebookEmbed({
  orgId,
  post,
  target,
}: {
  orgId: string;
  post: Post;
  target: PlatformPost;
}) {
  const permalink = useFacebookPermalink(orgId, post.id, target.platformId);
  if (permalink.isPending) return <Loading platformName="Facebook" />;
  if (permalink.isError) {
    return <Alert>{errorMessage(permalink.error, FACEBOOK_EMBED_FAILED)}</Alert>;
  }
  return (
    <EmbedFrame
      src={facebookEmbedUrl(permalink.data)}
      title="Facebook post preview"
      className="h-[600px] max-w-[500px]"
    />
  );
}

/**
 * docs/product.md#embedded-preview, #publish-and-reply-rules: the published post as its network shows it, when the post went to exactly one
 * network. Instagram, Facebook, X and TikTok are embedded; other networks get a link.
 */
export function EmbedPreview({ orgId, post }: { orgId: string; post: Post }) {
  const headingId = useId();
  const choice = chooseEmbed(post);
  if (!choice) return null;
  const platformName = choice.target.platformName || post.platforms[0]?.name || 'the network';

  let body: ReactNode;
  switch (choice.kind) {
    case 'instagram':
      body = <InstagramEmbed orgId={orgId} post={post} target={choice.target} />;
      break;
    case 'facebook':
      body = <FacebookEmbed orgId={orgId} post={post} target={choice.target} />;
      break;
    case 'x':
      body = (
        <EmbedFrame src={choice.src} title="X post preview" className="h-[560px] max-w-[550px]" />
      );
      break;
    case 'tiktok':
      body = (
        <EmbedFrame
          src={choice.src}
          title="TikTok post preview"
          className="h-[740px] max-w-[325px]"
        />
      );
      break;
    case 'link':
      body = <PermalinkLink href={choice.permalink} platformName={platformName} />;
      break;
  }

  return (
    <section
      aria-labelledby={headingId}
      className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id={headingId} className="text-lg font-semibold text-slate-900">
        Preview on {platformName}
      </h2>
      <div className="mt-3">{body}</div>
    </section>
  );
}
