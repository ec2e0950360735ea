import { describe, expect, it } from "vitest";
import { useAction } from "../../src/admin/action";
import { ApiError } from "../../src/api/http";

/** A promise the test settles by hand, to look at the action while it runs. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

describe("an admin action", () => {
  it("is busy while it runs and no longer once it is done", async () => {
    const { busy, run } = useAction();
    const request = deferred<string>();

    const running = run(() => request.promise);
    expect(busy.value).toBe(true);

    request.resolve("Saved.");
    await running;
    expect(busy.value).toBe(false);
  });

  it("shows the text the action returns as an ok message", async () => {
    const { message, run } = useAction();

    const succeeded = await run(async () => "Created 10 assignments in 0.12 s.");

    expect(succeeded).toBe(true);
    expect(message.value).toEqual({ kind: "ok", text: "Created 10 assignments in 0.12 s." });
  });

  it("shows a message of another kind as the action returns it", async () => {
    const { message, run } = useAction();

    await run(async () => ({ kind: "info", text: "No model worker is running." }));

    expect(message.value).toEqual({ kind: "info", text: "No model worker is running." });
  });

  it("shows no message when the action returns nothing", async () => {
    const { message, run } = useAction();

    await run(async () => undefined);

    expect(message.value).toBeNull();
  });

  it("clears the last message as soon as the next action starts", async () => {
    const { message, run } = useAction();
    await run(async () => "Saved.");
    const request = deferred<string>();

    const running = run(() => request.promise);
    expect(message.value).toBeNull();

    request.resolve("Saved again.");
    await running;
    expect(message.value).toEqual({ kind: "ok", text: "Saved again." });
  });

  it("shows the server's message when the server refuses, and is no longer busy", async () => {
    const { busy, message, run } = useAction();
    const refusal = new ApiError(409, {
      error: "conflict",
      message: "A project with this name exists.",
    });

    const succeeded = await run(async () => {
      throw refusal;
    });

    expect(succeeded).toBe(false);
    expect(message.value).toEqual({ kind: "error", text: "A project with this name exists." });
    expect(busy.value).toBe(false);
  });

  it("shows the message of any other error thrown while it runs", async () => {
    const { busy, message, run } = useAction();
    const request = deferred<string>();

    const running = run(() => request.promise);
    expect(busy.value).toBe(true);
    request.reject(new Error("The server cannot be reached."));

    expect(await running).toBe(false);
    expect(message.value).toEqual({ kind: "error", text: "The server cannot be reached." });
    expect(busy.value).toBe(false);
  });

  it("stays busy until the last of two overlapping actions is done", async () => {
    const { busy, run } = useAction();
    const first = deferred<string>();
    const second = deferred<string>();
    const runs = [run(() => first.promise), run(() => second.promise)];

    first.resolve("one");
    await runs[0];
    expect(busy.value).toBe(true);

    second.resolve("two");
    await runs[1];
    expect(busy.value).toBe(false);
  });
});
