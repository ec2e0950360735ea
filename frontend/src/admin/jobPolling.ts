// Following a worker's job (an import, a release bundle, an evaluation, a training) until it
// ends. Five pages used to write this loop by hand and the copies had drifted: the import form
// polled every 500 ms for ever, even after the admin had left the page, so a job a dead worker
// left "running" cost two requests a second per open tab until the tab was closed. Written once
// here, every follower
// - stops when the job is final, when its page goes (the component's scope is disposed), and
//   after a bounded time, saying so in the admin's words;
// - never has two requests out at once: the next wait starts when an answer is in;
// - waits longer the longer a job runs (fresh progress at first, fewer requests later);
// - retries a failed request a few times, saying why, then stops and says so.
import { getCurrentScope, onScopeDispose, readonly, ref, type Ref } from "vue";
import { duration, errorText } from "./format";

export interface JobPollingOptions<T> {
  /** One look at the job (or the page's list of jobs). */
  fetch: () => Promise<T>;
  /** True when nothing will change any more: no further look is needed. */
  isFinal: (answer: T) => boolean;
  /** Each answer, as it comes (the page shows it). */
  onAnswer?: (answer: T) => void;
  /** The first wait; each next one is `backoff` times longer, up to `maxIntervalMs`. */
  intervalMs?: number;
  maxIntervalMs?: number;
  backoff?: number;
  /** How long one follow may last before it stops and says so. */
  limitMs?: number;
  /** Failed requests in a row tried again before it stops. */
  retries?: number;
}

export interface JobPolling<T> {
  /**
   * Follow the job: take `first` (an answer the page already has) or look now, then again
   * until it is final. Called while following, it looks again at once (after the request
   * out, if any) and restarts the time bound. Resolves with the final answer, or null when it
   * stopped first (the page went, the time bound, failures: `message` says which).
   */
  follow: (first?: T) => Promise<T | null>;
  /** Stop looking (a follow under way resolves with null). */
  stop: () => void;
  /** Whether it is following now. */
  polling: Readonly<Ref<boolean>>;
  /** Why it stopped, or the failure it is retrying; "" otherwise. */
  message: Readonly<Ref<string>>;
}

export function useJobPolling<T>(options: JobPollingOptions<T>): JobPolling<T> {
  const settings = {
    intervalMs: options.intervalMs ?? 1000,
    maxIntervalMs: options.maxIntervalMs ?? 5000,
    backoff: options.backoff ?? 1.5,
    // Long enough for a big import or a training to report progress, short enough that a
    // job no worker will finish (its worker died) does not keep a forgotten tab busy.
    limitMs: options.limitMs ?? 15 * 60_000,
    retries: options.retries ?? 3,
  };
  const polling = ref(false);
  const message = ref("");
  let waiters: ((answer: T | null) => void)[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let inFlight = false;
  let lookAgain = false; // asked to look while a request was out: look once it is in
  let startedAt = 0;
  let wait: number = settings.intervalMs;
  let failures = 0;
  let disposed = false; // the page went: a late follow (after an await in the page) is a no-op

  function settle(answer: T | null) {
    polling.value = false;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    lookAgain = false;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve(answer);
  }

  function stopWith(text: string) {
    message.value = text;
    settle(null);
  }

  function schedule() {
    if (Date.now() - startedAt >= settings.limitMs) {
      stopWith(
        `Still running after ${duration(settings.limitMs / 1000)}: this page stopped checking. Reload it to check again.`,
      );
      return;
    }
    timer = setTimeout(() => {
      timer = null;
      void look();
    }, wait);
    wait = Math.min(settings.maxIntervalMs, wait * settings.backoff);
  }

  async function look() {
    inFlight = true;
    let answer: T;
    try {
      answer = await options.fetch();
    } catch (e) {
      inFlight = false;
      if (!polling.value) return; // stopped meanwhile: nobody reads this any more
      failures += 1;
      const why = errorText(e).replace(/\.$/, "");
      if (failures > settings.retries) {
        stopWith(
          `Stopped checking after ${failures} failed tries (${why}). Reload the page to check again.`,
        );
      } else {
        message.value = `Could not check (${why}); trying again…`;
        if (lookAgain) {
          lookAgain = false;
          void look();
        } else schedule();
      }
      return;
    }
    inFlight = false;
    if (!polling.value) return; // stopped (the page went) while the request was out
    failures = 0;
    message.value = "";
    if (lookAgain) {
      // Asked for a fresh look while this one was out: this answer may predate what the
      // page did since (started a job), so it is dropped for a fresh one.
      lookAgain = false;
      void look();
      return;
    }
    options.onAnswer?.(answer);
    if (options.isFinal(answer)) settle(answer);
    else schedule();
  }

  function follow(first?: T): Promise<T | null> {
    if (disposed) return Promise.resolve(null);
    const result = new Promise<T | null>((resolve) => waiters.push(resolve));
    polling.value = true;
    message.value = "";
    startedAt = Date.now();
    wait = settings.intervalMs;
    failures = 0;
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (first !== undefined) {
      options.onAnswer?.(first);
      if (options.isFinal(first)) {
        settle(first);
        return result;
      }
    }
    if (inFlight)
      lookAgain = true; // never a second request out: look again once it is in
    else if (first !== undefined) schedule();
    else void look();
    return result;
  }

  function stop() {
    settle(null);
  }

  // The page's scope (its component, or an effectScope it made): when it goes, so do the looks.
  if (getCurrentScope()) {
    onScopeDispose(() => {
      disposed = true;
      stop();
    });
  }

  return { follow, stop, polling: readonly(polling), message: readonly(message) };
}
