/**
 * Facebook answers with the Graph error envelope; the mapping (190 → reauth, 4/17/32/613 →
 * rate_limited, 1/2 → transient, the rest bad_request with Meta's words) lives in meta/errors.ts.
 */
export {
  describeMetaError as describeFacebookError,
  metaErrorKind as facebookErrorKind,
} from '../meta/errors.js';
