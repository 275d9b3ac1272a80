/**
 * TikTok numbers Herald relies on (platform-apis.md §5). TikTok changed its token lifetimes in
 * Nov 2026 (§9 #2): the answers' `expires_in`/`refresh_expires_in` always win over these.
 */

/** Login Kit + Content Posting scopes, as TikTok wants them: a comma list (§5.1). */
export const TIKTOK_SCOPES = ['user.info.basic', 'video.publish', 'video.upload'] as const;

/** Profile fields `user.info.basic` covers (§5.1, §10.1). */
export const TIKTOK_BASIC_FIELDS = ['open_id', 'union_id', 'avatar_url', 'display_name'] as const;
/** `username` needs `user.info.profile`; without it the handle comes from creator_info. */
export const TIKTOK_PROFILE_SCOPE = 'user.info.profile';
/** creator_info (scope video.publish) names the creator's handle (§5.2). */
export const TIKTOK_CREATOR_INFO_SCOPE = 'video.publish';

/** Fallbacks when an answer omits a lifetime: the shorter, newer figures (2 h / 180 days). */
export const TIKTOK_ACCESS_TOKEN_SECONDS = 7200;
export const TIKTOK_REFRESH_TOKEN_SECONDS = 180 * 86_400;
/** creator_info: 20 requests per minute per token. */
export const TIKTOK_CREATOR_INFO_RATE = { requests: 20, windowSeconds: 60 } as const;
