import type { FastifyInstance } from 'fastify';
import type { SandboxStore } from '../store.js';
import { emuTenant, requireSharedControl } from './tenant.js';

/** The emulator's clock: real time plus what tests advanced it by (kept in the store). */
export interface EmuClock {
  now(): Promise<number>;
  /** How far ahead of real time the clock is (ms). */
  offsetMs(): Promise<number>;
  /** Moves the clock forward; returns the whole offset in seconds. */
  advance(seconds: number): Promise<number>;
}

export function createEmuClock(store: SandboxStore): EmuClock {
  const offsetMs = async () =>
    (await store.get<{ offsetMs: number }>('clock', 'offset'))?.offsetMs ?? 0;
  return {
    offsetMs,
    async now() {
      return Date.now() + (await offsetMs());
    },
    async advance(seconds) {
      const next = (await offsetMs()) + seconds * 1000;
      await store.put('clock', 'offset', { offsetMs: next });
      return next / 1000;
    },
  };
}

/** The longest step of the clock: ten years. */
const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

/**
 * `GET /_emu/clock` and `POST /_emu/clock {advance_seconds}`: both answer {now, offset_seconds}.
 * The clock is the emulator's, shared by every organization's accounts (their tokens expire by
 * it): only a platform operator moves it. A move forward is told to `moved` before the answer
 * (SandboxContext.clockMoved); a failure there is logged, the clock stays moved.
 */
export function registerClockRoutes(
  scope: FastifyInstance,
  clock: EmuClock,
  moved?: (seconds: number) => Promise<void>,
) {
  const answer = async () => {
    const offset = await clock.offsetMs();
    return { now: new Date(Date.now() + offset).toISOString(), offset_seconds: offset / 1000 };
  };
  scope.get('/_emu/clock', answer);
  scope.post('/_emu/clock', async (request, reply) => {
    requireSharedControl(emuTenant(request), "The sandbox's clock");
    const seconds = Number((request.body as { advance_seconds?: unknown })?.advance_seconds);
    // Bounded so the clock stays a date (a step of 1e308 seconds made it Invalid Date).
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_ADVANCE_SECONDS)
      return reply.status(400).send({
        error: `advance_seconds must be a number of seconds from 0 to ${MAX_ADVANCE_SECONDS} (ten years).`,
      });
    await clock.advance(seconds);
    if (moved && seconds > 0)
      await moved(seconds).catch((err: unknown) =>
        request.log.error({ err }, 'telling Herald that the sandbox clock moved failed'),
      );
    return answer();
  });
}
