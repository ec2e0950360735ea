import { describe, expect, it, vi } from "vitest";
import { ApiError, NetworkError } from "../../src/api/http";
import type { Applied, AppliedBatch, Operation } from "../../src/api/types";
import {
  type Edit,
  type EditRequest,
  OperationQueue,
  type QueueHost,
} from "../../src/workspace/operationQueue";
import { syncText } from "../../src/workspace/syncText";

function applied(version: number, created: Record<string, number> = {}): Applied {
  return {
    operation_id: version,
    version,
    name: "assign",
    kind: "do",
    effects: [],
    warnings: [],
    created,
    client_id: "me",
  };
}

/** A server stand-in: answers each send with the next scripted outcome, when told to. */
function fakeServer() {
  const sent: { request: EditRequest; expected: number }[] = [];
  const waiting: { resolve: (a: Applied) => void; reject: (e: unknown) => void }[] = [];
  return {
    sent,
    transport: {
      send(request: EditRequest, expected: number) {
        sent.push({ request, expected });
        return new Promise<Applied>((resolve, reject) => waiting.push({ resolve, reject }));
      },
    },
    async answer(outcome: Applied | Error) {
      const next = waiting.shift()!;
      if (outcome instanceof Error) next.reject(outcome);
      else next.resolve(outcome);
      await flush();
    },
    inFlight: () => waiting.length,
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

function fakeHost(initial = 0) {
  let version = initial;
  const host = {
    appliedEdits: [] as Edit[],
    refusedEdits: [] as [Edit, ApiError][],
    conflicts: [] as Edit[][],
    lockedEdits: [] as Edit[][],
    version: () => version,
    applied: (a: Applied, edit: Edit) => {
      version = a.version;
      host.appliedEdits.push(edit);
    },
    refused: (edit: Edit, error: ApiError) => void host.refusedEdits.push([edit, error]),
    conflict: vi.fn(async (_e: ApiError, discarded: Edit[]) => {
      host.conflicts.push(discarded);
      version = 10; // the reload brought the state to the server's version
    }),
    locked: (_e: ApiError, discarded: Edit[]) => void host.lockedEdits.push(discarded),
  } satisfies QueueHost & Record<string, unknown>;
  return host;
}

const op = (mention: number, cluster: number | null = null): EditRequest => ({
  kind: "op",
  operation: { op: "assign", mention, cluster } satisfies Operation,
});

function setup(initial = 0) {
  const server = fakeServer();
  const host = fakeHost(initial);
  const timers: { fn: () => void; ms: number }[] = [];
  const queue = new OperationQueue(server.transport, host, {
    setTimer: (fn, ms) => timers.push({ fn, ms }),
    clearTimer: () => timers.splice(0),
    now: () => 0,
  });
  return { server, host, queue, timers };
}

describe("the operation queue", () => {
  it("sends one edit at a time, each with the version the previous one produced", async () => {
    const { server, host, queue } = setup(3);
    queue.enqueue(op(1), "first");
    queue.enqueue(op(2), "second");
    await flush();
    expect(server.sent.map((s) => s.expected)).toEqual([3]);
    expect(queue.status).toMatchObject({ queued: 2, inFlight: true });
    await server.answer(applied(4));
    expect(server.sent.map((s) => s.expected)).toEqual([3, 4]);
    await server.answer(applied(5));
    expect(host.appliedEdits.map((e) => e.description)).toEqual(["first", "second"]);
    expect(queue.status).toMatchObject({ queued: 0, inFlight: false, offline: false });
  });

  it("keeps edits while the server is unreachable, says so, and retries them in order", async () => {
    const { server, host, queue, timers } = setup();
    queue.enqueue(op(1), "first");
    queue.enqueue(op(2), "second");
    await flush();
    await server.answer(new NetworkError());
    expect(queue.status).toMatchObject({ offline: true, queued: 2, inFlight: false });
    expect(timers).toHaveLength(1);
    timers.shift()!.fn();
    await flush();
    expect(server.sent).toHaveLength(2);
    expect(server.sent[1]!.request).toEqual(op(1));
    await server.answer(applied(1));
    expect(queue.status.offline).toBe(false);
    await server.answer(applied(2));
    expect(host.appliedEdits.map((e) => e.description)).toEqual(["first", "second"]);
  });

  it("keeps and retries an edit the server refuses while restoring a backup, and says so", async () => {
    const { server, host, queue, timers } = setup();
    queue.enqueue(op(1), "first");
    await flush();
    await server.answer(new NetworkError("The server answered 503.", "restoring"));
    expect(queue.status).toMatchObject({ offline: true, restoring: true, queued: 1 });
    expect(syncText(queue.status, 0)).toMatch(
      /^Restoring a backup: 1 edit queued, retrying in \d+ s$/,
    );
    timers.shift()!.fn();
    await flush();
    expect(server.sent.map((s) => s.request)).toEqual([op(1), op(1)]);
    await server.answer(applied(1));
    expect(queue.status).toMatchObject({ offline: false, restoring: false, queued: 0 });
    expect(host.appliedEdits.map((e) => e.description)).toEqual(["first"]);
    expect(syncText(queue.status, 0)).toBe("All changes saved");
  });

  it("sends at once when asked to retry now (back online)", async () => {
    const { server, queue } = setup();
    queue.enqueue(op(1), "first");
    await flush();
    await server.answer(new NetworkError());
    queue.retryNow();
    await flush();
    expect(server.sent).toHaveLength(2);
  });

  it("on a conflict discards every queued edit, hands them to the host, and goes on", async () => {
    const { server, host, queue } = setup();
    queue.enqueue(op(1), "first");
    queue.enqueue(op(2), "second");
    queue.enqueue(op(3), "third");
    await flush();
    await server.answer(
      new ApiError(409, { error: "version_conflict", message: "changed", current_version: 10 }),
    );
    expect(host.conflicts).toHaveLength(1);
    expect(host.conflicts[0]!.map((e) => e.description)).toEqual(["first", "second", "third"]);
    expect(queue.status.queued).toBe(0);
    queue.enqueue(op(4), "after the reload");
    await flush();
    expect(server.sent.at(-1)!.expected).toBe(10);
  });

  it("reports a refused edit and sends the next one", async () => {
    const { server, host, queue } = setup();
    queue.enqueue(op(1), "refused one");
    queue.enqueue(op(2), "next one");
    await flush();
    await server.answer(new ApiError(422, { error: "cycle", message: "would close a cycle" }));
    expect(host.refusedEdits.map(([e, err]) => [e.description, err.message])).toEqual([
      ["refused one", "would close a cycle"],
    ]);
    expect(server.sent).toHaveLength(2);
    expect(server.sent[1]!.expected).toBe(0);
    await server.answer(applied(1));
    expect(host.appliedEdits.map((e) => e.description)).toEqual(["next one"]);
  });

  it("replaces a new cluster's local id by the id the server gave it", async () => {
    const { server, queue } = setup();
    const local = queue.newLocalId();
    queue.enqueue(op(1, null), "new cluster", { local, kind: "cluster" });
    queue.enqueue(op(2, local), "join it");
    await flush();
    await server.answer(applied(1, { cluster: 77 }));
    expect(server.sent[1]!.request).toEqual(op(2, 77));
    expect(queue.serverId(local)).toBe(77);
  });

  it("refuses, without sending, an edit that needs a cluster whose creation was refused", async () => {
    const { server, host, queue } = setup();
    const local = queue.newLocalId();
    queue.enqueue(op(1, null), "new cluster", { local, kind: "cluster" });
    queue.enqueue(op(2, local), "join it");
    await flush();
    await server.answer(new ApiError(422, { error: "no_change", message: "already alone" }));
    expect(server.sent).toHaveLength(1);
    expect(host.refusedEdits.map(([e, err]) => [e.description, err.code])).toEqual([
      ["new cluster", "no_change"],
      ["join it", "depends_on_refused_edit"],
    ]);
  });

  it("discards everything when the annotation is locked (submitted)", async () => {
    const { server, host, queue } = setup();
    queue.enqueue(op(1), "first");
    queue.enqueue(op(2), "second");
    await flush();
    await server.answer(new ApiError(423, { error: "annotation_locked", message: "submitted" }));
    expect(host.lockedEdits[0]!.map((e) => e.description)).toEqual(["first", "second"]);
  });

  it("pauses, keeping every edit, when the session has ended", async () => {
    const { server, queue } = setup();
    queue.enqueue(op(1), "first");
    await flush();
    await server.answer(
      new ApiError(403, { error: "not_authenticated", message: "Sign in again." }),
    );
    expect(queue.status).toMatchObject({ paused: "Sign in again.", queued: 1 });
    queue.retryNow();
    await flush();
    expect(server.sent).toHaveLength(2);
  });
});

describe("a batch edit (accepting suggestions above a score)", () => {
  it("hands each change of the batch to the host in order, and sends the next edit with the batch's last version", async () => {
    const server = fakeServer();
    const host = fakeHost(4);
    const versions: number[] = [];
    const batches: AppliedBatch[] = [];
    const queue = new OperationQueue(
      {
        send: (request: EditRequest, expected: number) => server.transport.send(request, expected),
      },
      {
        ...host,
        applied: (a: Applied, edit: Edit) => {
          versions.push(a.version);
          host.applied(a, edit);
        },
        batchDone: (_edit: Edit, batch: AppliedBatch) => void batches.push(batch),
      },
    );
    queue.enqueue({ kind: "acceptAbove", threshold: 0.8, kinds: ["membership"] }, "accept above");
    queue.enqueue(op(1), "after");
    await flush();
    const batch: AppliedBatch = {
      applied: [applied(5), applied(6), applied(7)],
      skipped: [{ suggestion: 9, reason: "cycle" }],
      version: 7,
    };
    await server.answer(batch as unknown as Applied);
    expect(versions).toEqual([5, 6, 7]);
    expect(batches).toEqual([batch]);
    expect(server.sent.map((s) => [s.request.kind, s.expected])).toEqual([
      ["acceptAbove", 4],
      ["op", 7],
    ]);
  });
});
