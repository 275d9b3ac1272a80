export const CONSTRAINTS_NOT_JSON = 'Media constraints must be valid JSON.';
export const CONSTRAINTS_NOT_OBJECT =
  'Media constraints must be a JSON object, such as {"image": {"allowedMimeTypes": ["image/png"]}}.';
export const NAME_REQUIRED = 'Name is required.';

export type PlatformFormResult =
  | { field: 'mediaConstraints' | 'name'; error: string; request: null }
  | {
      field: null;
      error: null;
      request: { name: string; mediaConstraints: Record<string, unknown> };
    };

/**
 * docs/product.md#admin-form-rules platform create: the JSON check comes first, then the name (required once trimmed);
 * the name is sent trimmed and empty constraints send an empty object.
 */
export function validatePlatformForm(name: string, constraintsText: string): PlatformFormResult {
  let mediaConstraints: Record<string, unknown> = {};
  if (constraintsText.trim()) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(constraintsText);
    } catch {
      return { field: 'mediaConstraints', error: CONSTRAINTS_NOT_JSON, request: null };
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return { field: 'mediaConstraints', error: CONSTRAINTS_NOT_OBJECT, request: null };
    }
    mediaConstraints = parsed as Record<string, unknown>;
  }
  const trimmed = name.trim();
  if (!trimmed) return { field: 'name', error: NAME_REQUIRED, request: null };
  return { field: null, error: null, request: { name: trimmed, mediaConstraints } };
}
