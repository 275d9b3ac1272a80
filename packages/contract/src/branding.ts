import { z } from 'zod';
import { formatFileSize } from './media-rules.js';

/**
 * An organization's branding (docs/reports.md#branding): its logo and colour, shown on the
 * reports it sends its clients and on the pages guests see.
 */

/** The logo's formats: what every mail client, PDF and browser shows. */
export const LOGO_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** The logo's largest file: a logo is small; 2 MB is ample for a sharp one. */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

export const LOGO_TYPE_MESSAGE = 'The logo must be a PNG, JPEG or WebP image.';
export const LOGO_TOO_LARGE_MESSAGE = `The logo is too large: it can be at most ${formatFileSize(LOGO_MAX_BYTES)}.`;

const BRAND_COLOR_MESSAGE = 'Write the colour as a hex code such as #1d4ed8.';
const HEX = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** `#1D4ED8`, `1d4ed8` or `#14d` as `#1d4ed8`; null when it is not a hex colour. */
export function normalizeBrandColor(value: string): string | null {
  const match = HEX.exec(value.trim());
  if (!match) return null;
  const digits = match[1]!.toLowerCase();
  const six =
    digits.length === 3
      ? digits
          .split('')
          .map((c) => c + c)
          .join('')
      : digits;
  return `#${six}`;
}

/** A brand colour as the API takes it, stored as `#rrggbb` (lower case). */
export const BrandColorSchema = z
  .string({ error: BRAND_COLOR_MESSAGE })
  .max(16, BRAND_COLOR_MESSAGE)
  .refine((value) => normalizeBrandColor(value) !== null, BRAND_COLOR_MESSAGE)
  .transform((value) => normalizeBrandColor(value)!);

/** WCAG relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (at: number) => {
    const c = parseInt(hex.slice(at, at + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** The text colours written on a brand colour: white, or the app's near-black. */
export const BRAND_TEXT_LIGHT = '#ffffff';
export const BRAND_TEXT_DARK = '#0f172a';

/**
 * The text colour to write on `color` (`#rrggbb`): whichever of white and near-black contrasts
 * more with it, so a name on a yellow band is dark and on a navy one white.
 */
export function brandTextColor(color: string): string {
  return contrastRatio(color, BRAND_TEXT_LIGHT) >= contrastRatio(color, BRAND_TEXT_DARK)
    ? BRAND_TEXT_LIGHT
    : BRAND_TEXT_DARK;
}

/** The organization's branding on its record (`GET /organizations/{orgId}`). */
export const OrganizationBrandingSchema = z.object({
  /** A signed URL of the logo (expires like other media links); null without a logo. */
  logoUrl: z.string().nullable(),
  /** `#rrggbb`; null when none is chosen. */
  color: z.string().nullable(),
});
export type OrganizationBranding = z.infer<typeof OrganizationBrandingSchema>;

/** `PUT /organizations/{orgId}/branding` (org:manage): the colour; null removes it. */
export const UpdateBrandingRequestSchema = z.object({
  color: BrandColorSchema.nullable(),
});
export type UpdateBrandingRequest = z.input<typeof UpdateBrandingRequestSchema>;
