/**
 * Instagram with Facebook Login answers with the Graph error envelope; the mapping (190 →
 * reauth, 4/17/32/613 and 2207042 → rate_limited, 1/2 → transient, the rest bad_request with
 * Meta's words) lives in meta/errors.ts.
 */
export {
  describeMetaError as describeInstagramError,
  metaErrorKind as instagramErrorKind,
} from '../meta/errors.js';
