import { z } from 'zod';

/**
 * A Mastodon status's own choices (docs/networks.md#mastodon-post-settings): a content warning
 * (`spoiler_text`, the text stays hidden behind it), who sees it (`visibility`) and the language
 * it is written in (`language`, ISO 639-1). They travel with each Mastodon account of a post.
 */
export const MASTODON_VISIBILITIES = ['public', 'unlisted', 'private', 'direct'] as const;
export type MastodonVisibility = (typeof MASTODON_VISIBILITIES)[number];

/** How Mastodon's own composer names each visibility. */
export const MASTODON_VISIBILITY_LABELS: Record<MastodonVisibility, string> = {
  public: 'Public',
  unlisted: 'Quiet public (unlisted)',
  private: 'Followers only',
  direct: 'Mentioned people only (direct)',
};

/** The longest content warning Herald sends; the server counts it in the status's limit too. */
export const MASTODON_SPOILER_MAX = 500;

export const MastodonPostSettingsSchema = z.object({
  /** The content warning; empty: none. */
  spoilerText: z
    .string({ error: 'The Mastodon content warning must be text.' })
    .trim()
    .max(
      MASTODON_SPOILER_MAX,
      `The Mastodon content warning can be at most ${MASTODON_SPOILER_MAX} characters.`,
    )
    .default(''),
  /** Null: the account's own default visibility on its server. */
  visibility: z
    .enum(MASTODON_VISIBILITIES, {
      error:
        'The Mastodon visibility must be one of public, unlisted, private (followers only) or direct.',
    })
    .nullable()
    .default(null),
  /** Two letters (ISO 639-1); null: the server guesses from the account's settings. */
  language: z
    .string({ error: 'The Mastodon language must be a two-letter ISO 639-1 code, like "en".' })
    .trim()
    .toLowerCase()
    .regex(/^[a-z]{2}$/, 'The Mastodon language must be a two-letter ISO 639-1 code, like "en".')
    .nullable()
    .default(null),
});
export type MastodonPostSettings = z.infer<typeof MastodonPostSettingsSchema>;

/** Account (integration) id → its Mastodon settings (the multipart field `mastodon`, as JSON). */
export const MastodonSettingsByAccountSchema = z.record(z.string(), MastodonPostSettingsSchema);

export const emptyMastodonSettings = (): MastodonPostSettings => ({
  spoilerText: '',
  visibility: null,
  language: null,
});
