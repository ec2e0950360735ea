import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { effectScope } from "vue";
import { useJobPolling, type JobPollingOptions } from "../../src/admin/jobPolling";

type Job = { status: "queued" | "running" | "succeeded" | "failed"; progress: number };
const running: Job = { status: "running", progress: 0.5 };
const done: Job = { status: "succeeded", progress: 1 };
const isFinal = (job: Job) => job.status === "succeeded" || job.status === "failed";

/** A promise the test settles by hand: a request still out. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((ok) => (resolve = ok));
  return { promise, resolve };
}

/** A job server: answers in turn (the last one for ever), each look counted. */
function server(...answers: (Job | Error)[]) {
  const server = {
    looks: 0,
    fetch: async (): Promise<Job> => {
      const answer = answers[Math.min(server.looks, answers.length - 1)]!;
      server.looks += 1;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return server;
}

function polling(options: Partial<JobPollingOptions<Job>> & Pick<JobPollingOptions<Job>, "fetch">) {
  return useJobPolling<Job>({ isFinal, intervalMs: 1000, maxIntervalMs: 1000, ...options });
}

const MINUTE = 60_000;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("following a job", () => {
  it("stops looking once the job is final, and resolves with it", async () => {
    const jobs = server(running, running, done);
    const shown: Job[] = [];
    const poll = polling({ fetch: jobs.fetch, onAnswer: (job) => shown.push(job) });

    const followed = poll.follow();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);

    expect(await followed).toEqual(done);
    expect(jobs.looks).toBe(3);
    expect(shown.map((j) => j.status)).toEqual(["running", "running", "succeeded"]);
    expect(poll.polling.value).toBe(false);
  });

  it("does not look at all when the page already has the final answer", async () => {
    const jobs = server(running);
    const poll = polling({ fetch: jobs.fetch });

    expect(await poll.follow(done)).toEqual(done);
    await vi.advanceTimersByTimeAsync(MINUTE);

    expect(jobs.looks).toBe(0);
  });

  it("stops looking when its page goes (the scope is disposed), and a late follow does nothing", async () => {
    const jobs = server(running);
    const scope = effectScope();
    const poll = scope.run(() => polling({ fetch: jobs.fetch }))!;

    const followed = poll.follow();
    await vi.advanceTimersByTimeAsync(2500); // looks at 0, 1 s and 2 s
    expect(jobs.looks).toBe(3);
    scope.stop();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);

    expect(jobs.looks).toBe(3);
    expect(await followed).toBeNull();
    // The page's own code still running after an await (a list it was loading) asks again.
    expect(await poll.follow()).toBeNull();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(jobs.looks).toBe(3);
  });

  it("drops the answer of a request out when its page goes", async () => {
    const out = deferred<Job>();
    const shown: Job[] = [];
    const scope = effectScope();
    const poll = scope.run(() =>
      polling({ fetch: () => out.promise, onAnswer: (job) => shown.push(job) }),
    )!;

    void poll.follow();
    scope.stop();
    out.resolve(running);
    await vi.advanceTimersByTimeAsync(MINUTE);

    expect(shown).toEqual([]);
  });

  it("stops after its time bound and says so in the admin's words", async () => {
    const jobs = server(running);
    const poll = polling({ fetch: jobs.fetch, limitMs: 2 * MINUTE });

    const followed = poll.follow();
    await vi.advanceTimersByTimeAsync(2 * MINUTE + 1000);
    const looks = jobs.looks;
    await vi.advanceTimersByTimeAsync(60 * MINUTE);

    expect(await followed).toBeNull();
    expect(jobs.looks).toBe(looks);
    expect(looks).toBeLessThanOrEqual(2 * 60 + 2); // one a second at most, then none
    expect(poll.polling.value).toBe(false);
    expect(poll.message.value).toBe(
      "Still running after 2 min: this page stopped checking. Reload it to check again.",
    );
  });

  it("never has two requests out: a slow answer delays the next look", async () => {
    let looks = 0;
    let out = deferred<Job>();
    const poll = polling({
      fetch: () => {
        looks += 1;
        return out.promise;
      },
    });

    void poll.follow();
    await vi.advanceTimersByTimeAsync(30_000); // thirty intervals, the first answer still out
    expect(looks).toBe(1);
    void poll.follow(); // the page asks again (its Refresh button) while it is out
    await vi.advanceTimersByTimeAsync(30_000);
    expect(looks).toBe(1);

    const first = out;
    out = deferred<Job>();
    first.resolve(running);
    await vi.advanceTimersByTimeAsync(0);
    // The asked-for look goes out once the first is in, not beside it.
    expect(looks).toBe(2);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(looks).toBe(2);
  });

  it("waits longer between looks the longer a job runs, up to a ceiling", async () => {
    const times: number[] = [];
    const poll = useJobPolling<Job>({
      isFinal,
      intervalMs: 1000,
      backoff: 2,
      maxIntervalMs: 4000,
      fetch: async () => {
        times.push(Date.now());
        return running;
      },
    });

    void poll.follow();
    await vi.advanceTimersByTimeAsync(20_000);

    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(gaps.slice(0, 5)).toEqual([1000, 2000, 4000, 4000, 4000]);
    poll.stop();
  });

  it("shows a failed look, tries again a few times, and goes on when one succeeds", async () => {
    const jobs = server(new Error("The server did not answer."), running, done);
    const poll = polling({ fetch: jobs.fetch });

    const followed = poll.follow();
    await vi.advanceTimersByTimeAsync(0);
    expect(poll.message.value).toBe("Could not check (The server did not answer); trying again…");
    await vi.advanceTimersByTimeAsync(1000);
    expect(poll.message.value).toBe("");

    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(await followed).toEqual(done);
  });

  it("stops after a bounded number of failed looks in a row, saying why", async () => {
    const jobs = server(new Error("Not found."));
    const poll = polling({ fetch: jobs.fetch, retries: 3 });

    const followed = poll.follow();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);

    expect(await followed).toBeNull();
    expect(jobs.looks).toBe(4); // the first look and three tries again
    expect(poll.message.value).toBe(
      "Stopped checking after 4 failed tries (Not found). Reload the page to check again.",
    );
  });

  it("follows again from the start when asked after it stopped", async () => {
    const jobs = server(running, done, running, done);
    const poll = polling({ fetch: jobs.fetch });

    const first = poll.follow();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(await first).toEqual(done);
    expect(jobs.looks).toBe(2);
    const again = poll.follow();
    await vi.advanceTimersByTimeAsync(MINUTE);

    expect(await again).toEqual(done);
    expect(jobs.looks).toBe(4);
  });
});
