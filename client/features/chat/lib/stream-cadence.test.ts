import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  COALESCE_MAX_WAIT_MS,
  STREAM_FRAME_GAP_MS,
  streamCadence,
  type FrameClock,
} from './stream-cadence';

/**
 * A 60 Hz display on fake timers (frames at every multiple of 1000/60 ms), or one that starts a
 * frame 1 ms after it is asked for (headless Chromium, variable-rate displays).
 */
function display(options: { frames: boolean; onDemand?: boolean } = { frames: true }) {
  const period = 1000 / 60;
  const clock: FrameClock = {
    now: () => Date.now(),
    requestFrame: (run) => {
      if (!options.frames) return -1;
      const next = options.onDemand ? Date.now() + 1 : Math.floor(Date.now() / period + 1) * period;
      return setTimeout(run, Math.ceil(next - Date.now())) as unknown as number;
    },
    cancelFrame: (id) => clearTimeout(id),
    setTimer: (run, ms) => setTimeout(run, ms),
    clearTimer: (id) => clearTimeout(id),
  };
  return clock;
}

/** Chunks every `every` ms for `span` ms: when each arrived and when each was written. */
function stream(clock: FrameClock, every: number, span: number) {
  const arrived: number[] = [];
  let written = 0;
  const latencies: number[] = [];
  const writes: number[] = [];
  const cadence = streamCadence(() => {
    writes.push(Date.now());
    for (; written < arrived.length; written++) latencies.push(Date.now() - arrived[written]!);
  }, clock);
  for (let t = 0; t < span; t += every) {
    setTimeout(() => {
      arrived.push(Date.now());
      cadence.schedule();
    }, t);
  }
  return { arrived, latencies, writes, cadence };
}

describe('streamCadence', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the first chunk in the next frame', () => {
    const { latencies } = stream(display(), 20, 1);
    vi.advanceTimersByTime(20);
    expect(latencies).toHaveLength(1);
    expect(latencies[0]).toBeLessThanOrEqual(17);
  });

  it('writes a fast stream at most once per six frames, no chunk waiting longer than the gap', () => {
    const { arrived, latencies, writes } = stream(display(), 20, 2_000);
    vi.advanceTimersByTime(2_100);
    expect(latencies).toHaveLength(arrived.length);
    expect(Math.max(...latencies)).toBeLessThanOrEqual(STREAM_FRAME_GAP_MS + 1);
    const gaps = writes.slice(1).map((t, i) => t - writes[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(STREAM_FRAME_GAP_MS - 1);
    // 100 chunks in about 20 writes, not 100.
    expect(writes.length).toBeLessThan(arrived.length / 4);
  });

  it('keeps the writes apart on a display that starts a frame whenever one is asked for', () => {
    const { arrived, latencies, writes } = stream(
      display({ frames: true, onDemand: true }),
      20,
      2_000,
    );
    vi.advanceTimersByTime(2_100);
    expect(latencies).toHaveLength(arrived.length);
    expect(Math.max(...latencies)).toBeLessThanOrEqual(STREAM_FRAME_GAP_MS);
    const gaps = writes.slice(1).map((t, i) => t - writes[i]!);
    // Asked for a little before the gap is up, and granted at once: never much sooner.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(STREAM_FRAME_GAP_MS - 15);
    // About one write per four or five chunks (every ~89 ms), not one per chunk.
    expect(writes.length).toBeLessThan(arrived.length * 0.3);
  });

  it('writes without frames (a hidden tab) after COALESCE_MAX_WAIT_MS', () => {
    const { latencies } = stream(display({ frames: false }), 20, 1);
    vi.advanceTimersByTime(COALESCE_MAX_WAIT_MS - 1);
    expect(latencies).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(latencies).toEqual([COALESCE_MAX_WAIT_MS]);
  });

  it('writes what waits at once on flushNow, and nothing more once cancelled', () => {
    const write = vi.fn();
    const cadence = streamCadence(write, display());
    cadence.schedule();
    cadence.flushNow();
    expect(write).toHaveBeenCalledTimes(1);
    cadence.schedule();
    cadence.cancel();
    vi.advanceTimersByTime(1_000);
    expect(write).toHaveBeenCalledTimes(1);
  });
});
