import type { Scenario } from './scenario.js';

/**
 * Scenario knobs for emulators that publish (docs/networks.md#scenario-knobs), set per account through
 * `POST /_emu/scenario {account, knob, on, value?}`. Unlike the connection knobs (on/off), most
 * carry a number: a duration, a count of calls, a cap.
 */
export const PUBLISHING_KNOBS = [
  /** Every API call of the account waits this many ms first. */
  'latency_ms',
  /** The next N API calls fail as the network's outage (500, Graph code 2 / internal_error). */
  'fail_next',
  /** The next N API calls are throttled (Graph code 4 / 429 rate_limit_exceeded). */
  'rate_limit_next',
  /** The next finalizing call commits the post, then hangs for `value` ms and fails. */
  'finalize_timeout',
  /** The next N media processed end in the network's processing error. */
  'processing_fails',
  /** Media processing takes this many ms (instead of the emulator's default). */
  'processing_ms',
  /** Replaces the network's publishing cap for the account (posts per 24 h, inits per minute). */
  'publish_cap',
  /** TikTok: ms between PUBLISH_COMPLETE and the public post id ("moderation"). */
  'moderation_ms',
] as const;
export type PublishingKnob = (typeof PUBLISHING_KNOBS)[number];

/**
 * How each knob reads its number: `counter` knobs are spent one per use, `once` knobs switch off
 * when used, `value` knobs stay until switched off. `default` applies when `on` comes without a
 * value; a knob without one needs a value.
 */
export const KNOB_VALUES: Record<
  string,
  { mode: 'counter' | 'once' | 'value'; default?: number; max: number }
> = {
  latency_ms: { mode: 'value', max: 120_000 },
  fail_next: { mode: 'counter', default: 1, max: 1_000_000 },
  rate_limit_next: { mode: 'counter', default: 1, max: 1_000_000 },
  finalize_timeout: { mode: 'once', default: 30_000, max: 600_000 },
  processing_fails: { mode: 'counter', default: 1, max: 1_000_000 },
  processing_ms: { mode: 'value', max: 3_600_000 },
  publish_cap: { mode: 'value', max: 1_000_000_000 },
  moderation_ms: { mode: 'value', max: 86_400_000 },
  /** X: the next N posts are refused by the 24-hour cap (x-user-limit-24hour-* headers). */
  daily_cap_next: { mode: 'counter', default: 1, max: 1_000_000 },
  /** Instagram: the next N carousel containers fail with code -1 / 2207032 (try again). */
  carousel_create_fails: { mode: 'counter', default: 1, max: 1_000_000 },
  /** Meta: the Graph error code a throttled call answers (4 unless set). */
  rate_limit_code: { mode: 'value', max: 1_000_000 },
  /**
   * Meta: the next call is throttled by its Business Use Case limit (80001 Pages, 80002
   * Instagram), its `X-Business-Use-Case-Usage` header announcing `value` minutes to wait.
   */
  buc_throttle_minutes: { mode: 'once', default: 10, max: 1_440 },
  /** Meta: the next N calls answer code 368 (blocked as abusive or against the rules). */
  policy_block_next: { mode: 'counter', default: 1, max: 1_000_000 },
  /**
   * Meta: the next `POST /upload:{session}` keeps this many of its bytes, then the connection
   * breaks before any answer (an interrupted Resumable Upload).
   */
  upload_interrupt_bytes: { mode: 'once', default: 0, max: 1_000_000_000_000 },
  /** Meta: webhook deliveries wait this many ms before they are sent. */
  webhook_delay_ms: { mode: 'value', max: 60_000 },
  /** TikTok: the next N inits answer `spam_risk_too_many_posts` (the daily cap of API posts). */
  spam_risk_next: { mode: 'counter', default: 1, max: 1_000_000 },
};

/**
 * The number `POST /_emu/scenario` stores for a knob switched on (undefined for knobs without
 * one: they remember when they were switched on), or why it cannot be set.
 */
export function knobValue(knob: string, raw: unknown): { value?: number; error?: string } {
  const spec = KNOB_VALUES[knob];
  if (!spec) return {};
  if (raw === undefined || raw === null) {
    if (spec.default === undefined) return { error: `${knob} needs a numeric value.` };
    return { value: spec.default };
  }
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > spec.max)
    return { error: `value for ${knob} must be a number from 0 to ${spec.max}.` };
  return { value: Math.floor(value) };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What an API call of this account must answer instead of its normal answer. */
export type CallFault = 'fail' | 'rate_limit' | null;

/** Knobs that make a call fail, in the order they are spent: throttling first. */
const FAULTS: Array<[string, Exclude<CallFault, null>]> = [
  ['rate_limit_next', 'rate_limit'],
  ['rate_limit_once', 'rate_limit'],
  ['fail_next', 'fail'],
  ['http_500_once', 'fail'],
];

/**
 * Applies the per-call knobs once per API request, from the scenario the access check read:
 * waits `latency_ms`, then spends one of `rate_limit_next`/`rate_limit_once` or
 * `fail_next`/`http_500_once`. Writes only when one of those is on.
 */
export async function callFault(scenario: Scenario): Promise<CallFault> {
  const latency = scenario.number('latency_ms');
  if (latency > 0) await sleep(latency);
  for (const [knob, fault] of FAULTS) if (await scenario.take(knob)) return fault;
  return null;
}
