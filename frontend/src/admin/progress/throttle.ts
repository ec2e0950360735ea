// At most one run of an async task per interval, never two at once, and always one more run
// after the last request: the progress page refetches on websocket messages through it, so a
// burst of keystrokes by ten annotators costs one fetch per interval, and the last state is
// always fetched.

export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface Throttled {
  /** Ask for a run: now if the last one started long enough ago, else at the interval's end. */
  request(): void;
  cancel(): void;
}

export function throttle(
  task: () => Promise<void> | void,
  intervalMs: number,
  timers: Timers = realTimers,
): Throttled {
  let lastStart = -Infinity;
  let running = false;
  let pending = false;
  let timer: unknown = null;
  let cancelled = false;

  const schedule = () => {
    if (timer !== null || running || cancelled) return;
    const wait = Math.max(0, lastStart + intervalMs - timers.now());
    timer = timers.setTimeout(() => {
      timer = null;
      void run();
    }, wait);
  };

  const run = async () => {
    if (cancelled) return;
    pending = false;
    running = true;
    lastStart = timers.now();
    try {
      await task();
    } catch {
      // The task reports its own errors; a failed run must not stop later ones.
    } finally {
      running = false;
    }
    if (pending) schedule();
  };

  return {
    request() {
      if (cancelled) return;
      pending = true;
      schedule();
    },
    cancel() {
      cancelled = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
