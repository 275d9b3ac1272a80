import { z } from 'zod';
import { successEnvelope } from './envelope.js';
import { isoDateTime } from './text.js';
import { POST_STATUSES } from './posts.js';

/**
 * Bulk CSV import and export of posts (docs/queue-and-import.md#csv-import). The first line
 * names the columns (any order, case-insensitive); row numbers count the lines of the file as a
 * spreadsheet shows them (the header is row 1, the first post row 2).
 */
export const IMPORT_COLUMNS = [
  {
    name: 'text',
    help: 'The post text for every account (may be empty when each network has its own text or media is given).',
  },
  {
    name: 'text:<network>',
    help: 'A text for one network only, e.g. text:x or text:linkedin (wins over text).',
  },
  {
    name: 'accounts',
    help: 'Required. The accounts, separated by ";": @handle, network:@handle, an account id, or a network name when it has one account.',
  },
  {
    name: 'time',
    help: 'When to publish: ISO with an offset (2030-01-31T09:00:00Z), or "2030-01-31 09:00" in the time zone this page names (the organization\'s, else yours). Required to schedule.',
  },
  {
    name: 'media_urls',
    help: 'Up to 4 image or video URLs separated by spaces or ";" (http or https, public addresses, at most the import size limit each).',
  },
  {
    name: 'first_comment',
    help: 'A first comment, published on each account whose network takes one (Instagram, Facebook, LinkedIn, X); checked against the network text limit.',
  },
  {
    name: 'alt_text',
    help: 'Alt text of the files, in media_urls order, separated by "|" (one text describes only the first file; at most 1,000 characters each).',
  },
  { name: 'title', help: 'An internal title (at most 200 characters).' },
] as const;

/** The most post rows one file may have. */
export const IMPORT_MAX_ROWS = 5_000;
/** The largest CSV accepted, in characters. */
export const IMPORT_MAX_CSV_CHARS = 8 * 1024 * 1024;
/** Rows written per transaction. */
export const IMPORT_BATCH_ROWS = 100;
export const IMPORT_MAX_MEDIA_PER_ROW = 4;
export const IMPORT_MAX_ALT_TEXT = 1_000;

export const IMPORT_MODES = ['draft', 'schedule'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

export const ImportRequestSchema = z.object({
  csv: z
    .string()
    .min(1, 'The CSV file is empty.')
    .max(
      IMPORT_MAX_CSV_CHARS,
      `The CSV file is larger than ${IMPORT_MAX_CSV_CHARS / (1024 * 1024)} MB. Split it into smaller files.`,
    ),
  /** Import the rows as drafts, or schedule them at their time. */
  mode: z.enum(IMPORT_MODES, 'mode must be "draft" or "schedule".'),
});
export type ImportRequest = z.infer<typeof ImportRequestSchema>;

export const ImportRowSchema = z.object({
  /** The row number as a spreadsheet shows it (header = 1). */
  row: z.number().int(),
  ok: z.boolean(),
  /** Why the row is refused, each naming the column; empty when it is fine. */
  messages: z.array(z.string()),
  text: z.string(),
  accounts: z.array(z.string()),
  scheduledAt: z.string().nullable(),
  mediaCount: z.number().int(),
});
export type ImportRow = z.infer<typeof ImportRowSchema>;

export const ImportDryRunResponseSchema = successEnvelope(
  z.object({
    rows: z.array(ImportRowSchema),
    valid: z.number().int(),
    invalid: z.number().int(),
  }),
);

export const ImportResponseSchema = successEnvelope(
  z.object({
    imported: z.number().int(),
    postIds: z.array(z.string()),
    /** Rows not imported (refused by the dry-run rules or when their media was fetched). */
    refused: z.array(z.object({ row: z.number().int(), message: z.string() })),
  }),
);

/** GET …/posts/export.csv?from&to&status: posts of a range, streamed. */
export const PostsExportQuerySchema = z.object({
  from: isoDateTime('from'),
  to: isoDateTime('to'),
  status: z
    .preprocess(
      (value) => (typeof value === 'string' ? value.split(',').filter(Boolean) : value),
      z.array(z.enum(POST_STATUSES)),
    )
    .optional(),
});
