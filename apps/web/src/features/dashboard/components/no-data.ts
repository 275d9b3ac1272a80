/** What a stat card says when its figure has no source or nothing to count: never a made-up 0. */
export const NO_DATA = 'No data yet';
