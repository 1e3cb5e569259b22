/**
 * When a streamed reply's waiting text is written into the page (ADR 0011).
 *
 * A frame that changes the page costs milliseconds of main-thread time (style, layout, paint,
 * the commit, the hover update of a pointer resting on the messages) however little text it adds:
 * about 2 ms in headless Chromium on this project's machine, which draws in software. Chunks
 * arrive faster than frames are cheap (a model writes one every 20 ms or so), so the text is
 * written at most once per STREAM_FRAME_GAP_MS, in an animation frame:
 *  - text arriving after a quiet spell is written in the next frame (the first chunk at once);
 *  - text arriving sooner waits for the frame due STREAM_FRAME_GAP_MS after the last write's
 *    frame: every sixth display frame at 60 Hz, ten writes a second, the pace at which text
 *    still reads as flowing rather than jumping (each write adds a few words, under two lines).
 *    A reply at 20 ms a chunk then costs 0.2 rendering frames per chunk instead of one (with
 *    the reply growing into room below it, components/message-list.tsx, bench/chat-render
 *    measured 1.0-1.5 ms a chunk at 50 ms against its 1 ms goal, 0.6-0.95 ms at 100 ms).
 * The wait is a timer that asks for the frame shortly before it is due, rather than a frame asked
 * for every frame: a frame that only decides to wait would cost nearly what it saves.
 * Without frames (a hidden tab) the text is written after COALESCE_MAX_WAIT_MS at most.
 */

/** Least time between two writes of streamed text: six display frames at 60 Hz. */
export const STREAM_FRAME_GAP_MS = 100;
/**
 * The timer asks for the frame this long before STREAM_FRAME_GAP_MS is up (counted from the last
 * write): early enough that a timer a little late still catches the frame that is due, so no chunk
 * waits longer than the gap (bench/chat-render measures it: asked 8 ms early, headless Chromium's
 * frames came late enough for 1-7 ms more now and then; 12 ms early, never), late enough
 * (less than one 16.7 ms frame) that at 60 Hz the frame it gets is not an earlier one. (Counted
 * from the write, not from the frame's timestamp: Chromium stamps a frame with its display tick,
 * which can be a frame or more before the frame runs.)
 */
const ASK_EARLY_MS = 12;
/**
 * Waiting text is written after this long when no frame comes (a hidden tab has none): longer
 * than the gap, so that a frame a little late is still the one that writes.
 */
export const COALESCE_MAX_WAIT_MS = STREAM_FRAME_GAP_MS + 50;

export interface FrameClock {
  now: () => number;
  requestFrame: (run: () => void) => number;
  cancelFrame: (id: number) => void;
  setTimer: (run: () => void, ms: number) => ReturnType<typeof setTimeout>;
  clearTimer: (id: ReturnType<typeof setTimeout> | undefined) => void;
}

export const browserClock: FrameClock = {
  now: () => performance.now(),
  requestFrame: (run) =>
    typeof requestAnimationFrame === 'function' ? requestAnimationFrame(run) : -1,
  cancelFrame: (id) => {
    if (id >= 0 && typeof cancelAnimationFrame === 'function') cancelAnimationFrame(id);
  },
  setTimer: (run, ms) => setTimeout(run, ms),
  clearTimer: (id) => clearTimeout(id),
};

export interface StreamCadence {
  /** Text is waiting: `write` runs when its turn comes (once, however often this is called). */
  schedule: () => void;
  /** Writes what waits now (an event that is not text, leaving the chat): timers are dropped. */
  flushNow: () => void;
  /** Drops the timers without writing. */
  cancel: () => void;
}

export function streamCadence(write: () => void, clock: FrameClock = browserClock): StreamCadence {
  let lastWrite = -Infinity;
  let frame: number | undefined;
  let ask: ReturnType<typeof setTimeout> | undefined;
  let fallback: ReturnType<typeof setTimeout> | undefined;

  const cancel = () => {
    if (frame !== undefined) clock.cancelFrame(frame);
    clock.clearTimer(ask);
    clock.clearTimer(fallback);
    frame = ask = fallback = undefined;
  };
  const flushNow = () => {
    cancel();
    lastWrite = clock.now();
    write();
  };
  const schedule = () => {
    if (fallback !== undefined) return;
    fallback = clock.setTimer(flushNow, COALESCE_MAX_WAIT_MS);
    const wait = lastWrite + STREAM_FRAME_GAP_MS - ASK_EARLY_MS - clock.now();
    if (wait <= 0) {
      frame = clock.requestFrame(flushNow);
      return;
    }
    ask = clock.setTimer(() => {
      ask = undefined;
      frame = clock.requestFrame(flushNow);
    }, wait);
  };
  return { schedule, flushNow, cancel };
}
