import { PLATFORM_NAMES, type PlatformName } from '@herald/contract';
import type { ReactNode } from 'react';

/**
 * How the post details page shows a published post (features/posts' embed preview): Instagram
 * by its shortcode, Facebook by its permalink, X and TikTok in their embed frames, any other
 * network as a link to the post there.
 */
export type NetworkEmbed = 'instagram' | 'facebook' | 'x' | 'tiktok' | 'link';

/**
 * What the web app shows of one network, besides what the contract's NETWORK_TRAITS says and the
 * preview of a post there (components/post-previews/, keyed by the same names: kept apart so
 * that pages drawing a network's mark do not load the previews).
 */
export interface WebNetwork {
  /** The network's tile (components/ui/network-mark): its colours, and its mark on a 24×24 grid. */
  mark: { background: string; glyph: ReactNode };
  /** Other names the app may receive for it, lowercase (X was Twitter). */
  aliases?: readonly string[];
  /** Whether an account is known there by its handle (@name) rather than by a display name. */
  knownByHandle: boolean;
  /** What kind of account it is, as connected accounts list it: "Facebook Page", "LinkedIn profile"… */
  accountKind: (account: { platformAccountId: string }) => string;
  embed: NetworkEmbed;
  /** A network of many servers (Mastodon): connecting asks which server the account is on. */
  asksServer?: boolean;
  /**
   * A network without a sign-in page for apps (Bluesky): connecting asks for the account's
   * handle and an app password, in Settings.
   */
  connectsWithAppPassword?: boolean;
}

/**
 * Every network the web app knows, one entry per name of the contract's PLATFORM_NAMES: a name
 * added there without its entry here fails the typecheck.
 */
export const WEB_NETWORKS: Readonly<Record<PlatformName, WebNetwork>> = {
  X: {
    mark: {
      background: 'bg-black',
      glyph: (
        <path
          d="M5 4.5 19 19.5M19 4.5 5 19.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.2"
          strokeLinecap="round"
        />
      ),
    },
    aliases: ['twitter'],
    knownByHandle: true,
    accountKind: () => 'X profile',
    embed: 'x',
  },
  Instagram: {
    mark: {
      background: 'bg-gradient-to-br from-[#F58529] via-[#DD2A7B] to-[#8134AF]',
      glyph: (
        <g fill="none" stroke="currentColor" strokeWidth="2">
          <rect x="4" y="4" width="16" height="16" rx="5" />
          <circle cx="12" cy="12" r="3.6" />
          <circle cx="17" cy="7" r="0.6" fill="currentColor" />
        </g>
      ),
    },
    // An Instagram account's name is often its Facebook Page's.
    knownByHandle: true,
    accountKind: () => 'Instagram professional account',
    embed: 'instagram',
  },
  Facebook: {
    mark: {
      background: 'bg-[#1877F2]',
      glyph: (
        <path
          d="M13.5 21v-7.5h2.6l.4-3h-3V8.6c0-.9.3-1.5 1.6-1.5h1.6V4.4a21 21 0 0 0-2.4-.1c-2.4 0-4 1.4-4 4.1v2.1H7.7v3h2.6V21z"
          fill="currentColor"
        />
      ),
    },
    knownByHandle: false,
    accountKind: () => 'Facebook Page',
    embed: 'facebook',
  },
  Threads: {
    mark: {
      background: 'bg-black',
      glyph: (
        <path
          d="M16.2 11.3c-.3-2.3-1.9-3.5-4.1-3.5-1.6 0-2.9.7-3.6 1.9m7.7 1.6c-3.7-.6-6.2.2-6.2 2.3 0 1.2 1 2 2.4 2 2.5 0 3.8-1.9 3.8-4.3m0 0c2.6 1 3.1 3.6 2 5.5C17 19.2 15 20 12.3 20 7.6 20 5 17 5 12s2.6-8 7.3-8c3.7 0 6 1.7 6.9 4.6"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinecap="round"
        />
      ),
    },
    knownByHandle: true,
    accountKind: () => 'Threads profile',
    embed: 'link',
  },
  TikTok: {
    mark: {
      background: 'bg-black',
      glyph: (
        <path
          d="M14 3.5v11.2a3.2 3.2 0 1 1-3.2-3.2M14 3.5c.4 2.4 2 4 4.5 4.2"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      ),
    },
    knownByHandle: true,
    accountKind: () => 'TikTok account',
    embed: 'tiktok',
  },
  LinkedIn: {
    mark: {
      background: 'bg-[#0A66C2]',
      glyph: (
        <g fill="currentColor">
          <rect x="5" y="9.5" width="3" height="9" />
          <circle cx="6.5" cy="6.3" r="1.8" />
          <path d="M10.5 9.5h2.9v1.3c.5-.9 1.6-1.5 3-1.5 2.4 0 3.1 1.5 3.1 3.8v5.4h-3v-4.8c0-1.1-.3-1.8-1.3-1.8s-1.7.7-1.7 1.8v4.8h-3z" />
        </g>
      ),
    },
    knownByHandle: false,
    accountKind: ({ platformAccountId }) =>
      platformAccountId.startsWith('urn:li:organization:') ? 'LinkedIn Page' : 'LinkedIn profile',
    embed: 'link',
  },
  Mastodon: {
    mark: {
      background: 'bg-[#6364FF]',
      glyph: (
        <path
          d="M19.6 8.3c0-3.6-2.4-4.7-2.4-4.7C16 3 13.9 2.8 12 2.8h-.1c-1.9 0-4 .2-5.2.8 0 0-2.4 1.1-2.4 4.7 0 .8 0 1.8.1 2.9.1 3.6.7 7.1 4 8 1.5.4 2.8.5 3.9.4 1.9-.1 2.9-.7 2.9-.7l-.1-1.4s-1.3.4-2.8.4c-1.5-.1-3-.2-3.3-2 0-.2 0-.3 0-.5 0 0 1.5.4 3.3.4 1.1.1 2.2-.1 3.2-.2 2-.2 3.8-1.5 4-2.6.3-1.8.3-4.4.3-4.4zM16.8 13h-1.9V8.5c0-1-.4-1.5-1.2-1.5-.9 0-1.4.6-1.4 1.8v2.5h-1.8V8.8c0-1.2-.5-1.8-1.4-1.8-.8 0-1.2.5-1.2 1.5V13H6.2V8.3c0-1 .2-1.7.7-2.3.5-.6 1.2-.8 2-.8 1 0 1.7.4 2.2 1.1l.5.8.5-.8c.5-.8 1.2-1.1 2.2-1.1.8 0 1.5.3 2 .8.5.6.7 1.3.7 2.3z"
          fill="currentColor"
        />
      ),
    },
    knownByHandle: true,
    accountKind: ({ platformAccountId }) =>
      `Mastodon account on ${platformAccountId.split('@').pop() ?? 'its server'}`,
    embed: 'link',
    asksServer: true,
  },
  Bluesky: {
    mark: {
      background: 'bg-[#0085FF]',
      glyph: (
        <path
          d="M6.3 4.6C8.6 6.3 11.1 9.8 12 11.7c.9-1.9 3.4-5.4 5.7-7.1 1.7-1.2 4.3-2.2 4.3.8 0 .6-.3 5-.5 5.7-.7 2.5-3.2 3.1-5.5 2.7 4 .7 5 2.9 2.8 5.2-4.2 4.3-6-1.1-6.5-2.5l-.3-.8-.3.8c-.5 1.4-2.3 6.8-6.5 2.5-2.2-2.3-1.2-4.5 2.8-5.2-2.3.4-4.8-.2-5.5-2.7C2.3 10.4 2 6 2 5.4c0-3 2.6-2 4.3-.8z"
          fill="currentColor"
        />
      ),
    },
    knownByHandle: true,
    accountKind: () => 'Bluesky account',
    embed: 'link',
    connectsWithAppPassword: true,
  },
  YouTube: {
    mark: {
      background: 'bg-[#FF0000]',
      glyph: <path d="M9.5 7.5v9l7.5-4.5z" fill="currentColor" />,
    },
    knownByHandle: true,
    accountKind: () => 'YouTube channel',
    embed: 'link',
  },
  'Google Business Profile': {
    mark: {
      background: 'bg-[#1A73E8]',
      // A shop front: awning and door.
      glyph: (
        <path
          d="M5 9.5h14M6 9.5 7 5h10l1 4.5M6.5 9.5V19h11V9.5M10.5 19v-4.5h3V19"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinejoin="round"
        />
      ),
    },
    aliases: ['google business', 'google my business', 'gbp'],
    knownByHandle: false,
    accountKind: () => 'Business Profile location',
    embed: 'link',
  },
  Pinterest: {
    mark: {
      background: 'bg-[#E60023]',
      glyph: (
        <path
          d="M12.3 3C7.4 3 5 6.4 5 9.3c0 1.7.7 3.3 2.1 3.9.2.1.4 0 .5-.2l.2-.8c.1-.3 0-.4-.2-.6-.4-.5-.7-1.2-.7-2.1 0-2.7 2-5.1 5.3-5.1 2.9 0 4.5 1.8 4.5 4.1 0 3.1-1.4 5.7-3.4 5.7-1.1 0-2-.9-1.7-2.1.3-1.4 1-2.9 1-3.9 0-.9-.5-1.6-1.5-1.6-1.2 0-2.1 1.2-2.1 2.8 0 1 .3 1.7.3 1.7l-1.4 5.9c-.4 1.7-.1 3.9 0 4.1 0 .1.2.2.3.1.1-.1 1.4-1.7 1.8-3.3l.7-2.7c.4.7 1.4 1.3 2.5 1.3 3.3 0 5.6-3 5.6-7.1C19 5.9 16.4 3 12.3 3z"
          fill="currentColor"
        />
      ),
    },
    knownByHandle: true,
    accountKind: () => 'Pinterest account',
    embed: 'link',
  },
};

/**
 * The network a platform's name stands for, whatever its case or spaces around it, and by its
 * old names too ("twitter" → X); null for a network the web app has no entry for.
 */
export function platformNameOf(name: string): PlatformName | null {
  const key = name.trim().toLowerCase();
  return (
    PLATFORM_NAMES.find((n) => n.toLowerCase() === key || WEB_NETWORKS[n].aliases?.includes(key)) ??
    null
  );
}

/** The web app's entry for a platform's name (see `platformNameOf`); null when it has none. */
export function webNetworkOf(name: string): WebNetwork | null {
  const network = platformNameOf(name);
  return network ? WEB_NETWORKS[network] : null;
}
