// The pure side of model suggestions: local re-mapping, what is open, counts, walking order,
// run ordering and wording, and the re-fetch throttle.
import { describe, expect, it } from "vitest";
import type {
  Decision,
  EdgeItem,
  Id,
  LinkItem,
  LinkType,
  MembershipItem,
  RunPayload,
  SuggestionsPayload,
} from "../../src/api/types";
import {
  countAbove,
  indexSuggestions,
  isNewerRun,
  majorityCluster,
  type MappingSource,
  membershipOperation,
  nextEntry,
  openMembership,
  runState,
  sortWalk,
  Throttle,
  type WalkEntry,
} from "../../src/workspace/suggestionModel";

function source(options: {
  clusters?: Record<Id, Id[]>;
  decisions?: Record<Id, Decision>;
  edges?: [Id, Id][];
  links?: [LinkType, Id, Id][];
  rejected?: Id[];
  mentions?: number;
}): MappingSource {
  const clusterOf = new Map<Id, Id>();
  for (const [c, members] of Object.entries(options.clusters ?? {}))
    for (const m of members) clusterOf.set(m, Number(c));
  const edges = new Set((options.edges ?? []).map(([p, c]) => `${p}>${c}`));
  const links = new Set((options.links ?? []).map((l) => l.join("|")));
  return {
    clusterOf: (m) => clusterOf.get(m),
    mentionState: (m) =>
      m >= 1 && m <= (options.mentions ?? 12)
        ? { rejected: (options.rejected ?? []).includes(m) }
        : undefined,
    decision: (s) => options.decisions?.[s],
    hasCluster: (c) => c in (options.clusters ?? {}),
    hasEdge: (p, c) => edges.has(`${p}>${c}`),
    hasLink: (t, a, b) => links.has(`${t}|${a}|${b}`),
    mentionsOf: () => undefined,
  };
}

const membership = (suggestion: Id, mention: Id, members: Id[], score = 0.8): MembershipItem => ({
  suggestion,
  score,
  uncertainty: 1 - 2 * Math.abs(score - 0.5),
  mention,
  suggested_members: members,
  operation: { op: "assign", mention, cluster: null },
  decision: null,
  valid: true,
  reason: "",
});
const edge = (suggestion: Id, parent: Id, child: Id, score = 0.7, valid = true): EdgeItem => ({
  suggestion,
  score,
  uncertainty: 1 - 2 * Math.abs(score - 0.5),
  operation: { op: "set_parent", parent, child },
  decision: null,
  valid,
  reason: valid ? "" : "cycle",
});
const link = (
  suggestion: Id,
  anaphor: Id,
  antecedent: Id,
  score = 0.9,
  type: LinkType = "COREFERENCE",
): LinkItem => ({
  suggestion,
  score,
  uncertainty: 1 - 2 * Math.abs(score - 0.5),
  operation: { op: "add_link", type, anaphor, antecedent },
  decision: null,
  valid: true,
  reason: "",
});

function payload(parts: Partial<SuggestionsPayload>): SuggestionsPayload {
  return {
    run: null,
    newest_run: null,
    version: 0,
    memberships: [],
    edges: [],
    links: [],
    mentions: [],
    ...parts,
  };
}

function run(
  id: Id,
  status: RunPayload["status"],
  progress = 0,
  extra: Partial<RunPayload> = {},
): RunPayload {
  return {
    run: id,
    topic: 1,
    backend: "minilm",
    status,
    progress,
    message: "",
    error: "",
    attempts: status === "queued" ? 0 : 1,
    created_at: null,
    finished_at: null,
    timings: {},
    ...extra,
  };
}

describe("mapping a membership onto my clusters", () => {
  it("takes the cluster holding most other suggested members, ties to the lowest id", () => {
    const clusterOf = (m: Id) => ({ 2: 20, 3: 20, 4: 10, 5: 10, 6: 30 })[m];
    expect(majorityCluster([1, 2, 3, 4], 1, clusterOf)).toBe(20);
    expect(majorityCluster([1, 2, 3, 4, 5], 1, clusterOf)).toBe(10);
    expect(majorityCluster([1, 7], 1, clusterOf)).toBeNull();
  });

  it("suggests a new cluster for the first member, then the cluster it made for the next", () => {
    const item1 = membership(101, 1, [1, 2, 3]);
    const item2 = membership(102, 2, [1, 2, 3]);
    const fresh = openMembership(item1, source({}))!;
    expect(fresh.target).toBeNull();
    expect(membershipOperation(fresh)).toEqual({ op: "assign", mention: 1, cluster: null });
    expect(fresh.fellows).toEqual([2, 3]);
    const afterFirst = source({ clusters: { 50: [1] }, decisions: { 101: "accepted" } });
    expect(openMembership(item1, afterFirst)).toBeNull();
    expect(membershipOperation(openMembership(item2, afterFirst)!)).toEqual({
      op: "assign",
      mention: 2,
      cluster: 50,
    });
  });

  it("uses a cluster still being created (a negative id) like any other", () => {
    const s = { ...source({}), clusterOf: (m: Id) => (m === 1 ? -1 : undefined) };
    expect(openMembership(membership(102, 2, [1, 2]), s)!.target).toBe(-1);
  });

  it("closes when the annotation agrees, the mention is rejected or gone; keeps a rejected decision open", () => {
    expect(
      openMembership(membership(1, 2, [1, 2]), source({ clusters: { 7: [1, 2] } })),
    ).toBeNull();
    expect(openMembership(membership(1, 2, [2]), source({ clusters: { 7: [2] } }))).toBeNull();
    expect(openMembership(membership(1, 2, [1, 2]), source({ rejected: [2] }))).toBeNull();
    expect(openMembership(membership(1, 99, [1, 99]), source({}))).toBeNull();
    const moved = openMembership(
      membership(1, 2, [1, 2]),
      source({ clusters: { 7: [1], 8: [2] }, decisions: { 1: "rejected" } }),
    )!;
    expect(moved).toMatchObject({ target: 7, current: 8, decision: "rejected" });
  });
});

describe("indexing and counting", () => {
  const data = payload({
    memberships: [
      membership(1, 1, [1, 2], 0.9),
      membership(2, 2, [1, 2], 0.6),
      membership(3, 3, [3], 0.95),
    ],
    edges: [edge(10, 50, 60, 0.85), edge(11, 60, 50, 0.9, false), edge(12, 50, 70, 0.99)],
    links: [link(20, 5, 4, 0.97), link(21, 6, 5, 0.5)],
  });
  const index = indexSuggestions(data);

  it("indexes memberships by mention and links by both of their mentions", () => {
    expect(index.byMention.get(2)?.suggestion).toBe(2);
    expect(index.linksByMention.get(5)?.map((l) => l.suggestion)).toEqual([20, 21]);
    expect(index.byId.get(12)?.kind).toBe("edge");
  });

  it("counts what accept-above would take: undecided, open, at or above the score", () => {
    const s = source({ clusters: { 50: [9], 60: [10] }, decisions: { 2: "rejected" } });
    const all = new Set(["membership", "edge", "link"] as const);
    // membership 3 is a singleton suggestion of an unassigned mention: a new cluster, open.
    expect(countAbove(index, s, 0.8, all)).toEqual({
      membership: 2,
      edge: 2,
      link: 1,
      mention: 0,
      refused: 1,
      total: 5,
    });
    expect(countAbove(index, s, 0, new Set(["link"] as const))).toMatchObject({
      link: 2,
      total: 2,
    });
    // Edge 12 names a cluster that does not exist here (any more): not counted.
    const merged = source({ clusters: { 50: [9], 60: [10] }, edges: [[50, 60]] });
    expect(countAbove(index, merged, 0.8, new Set(["edge"] as const))).toMatchObject({
      edge: 1,
      refused: 1,
    });
  });
});

describe("walking through suggestions (G)", () => {
  const entries: WalkEntry[] = sortWalk([
    { suggestion: 3, kind: "link", mention: 30, position: 5, rank: 1 },
    { suggestion: 1, kind: "membership", mention: 10, position: 1, rank: 0 },
    { suggestion: 2, kind: "membership", mention: 30, position: 5, rank: 0 },
  ]);

  it("goes in reading order, memberships before links at one mention, and wraps", () => {
    expect(entries.map((e) => e.suggestion)).toEqual([1, 2, 3]);
    expect(nextEntry(entries, 0, null)?.suggestion).toBe(1);
    expect(nextEntry(entries, 1, null)?.suggestion).toBe(2);
    expect(nextEntry(entries, 5, 2)?.suggestion).toBe(3);
    expect(nextEntry(entries, 5, 3)?.suggestion).toBe(1);
    expect(nextEntry(entries, 9, null)?.suggestion).toBe(1);
    expect(nextEntry([], 0, null)).toBeNull();
  });
});

describe("runs", () => {
  it("keeps the newest run and the latest state of it, whatever order messages come in", () => {
    expect(isNewerRun(run(2, "queued"), run(1, "succeeded"))).toBe(true);
    expect(isNewerRun(run(1, "running", 0.5), run(2, "queued"))).toBe(false);
    expect(isNewerRun(run(2, "running", 0.4), run(2, "running", 0.6))).toBe(false);
    expect(isNewerRun(run(2, "succeeded", 1), run(2, "running", 0.6))).toBe(true);
    // The answer to the request (queued) arriving after the run finished changes nothing.
    expect(isNewerRun(run(2, "queued"), run(2, "succeeded", 1))).toBe(false);
    // A run taken over by another worker starts again from 0.
    expect(isNewerRun(run(2, "running", 0.1, { attempts: 2 }), run(2, "running", 0.7))).toBe(true);
  });

  it("says why a queued run waits, how far a running one is, and why one failed", () => {
    expect(runState(null, null).tone).toBe("idle");
    expect(runState(null, null).text).toMatch(/with Suggest/);
    // no Suggest button on a submitted topic or under review: the line does not point to one
    expect(runState(null, null, false).text).not.toMatch(/Suggest/);
    expect(runState(run(1, "queued"), []).text).toMatch(/no model worker is running/);
    expect(runState(run(1, "queued"), ["models@host"]).text).toMatch(/waiting for a model worker/);
    expect(runState(run(1, "queued"), null).text).not.toMatch(/no model worker/);
    expect(runState(run(1, "running", 0.426, { message: "encoding" }), null).text).toBe(
      "Running on minilm: 43 % (encoding)",
    );
    const failed = runState(
      run(1, "failed", 0, { error: "OSError: no model at /x", message: "OSError" }),
      null,
    );
    expect(failed).toEqual({
      tone: "error",
      text: "The suggestion run failed: OSError: no model at /x",
    });
  });
});

describe("the re-fetch throttle", () => {
  function setup(gap = 1000) {
    let now = 0;
    const timers: { fn: () => void; at: number }[] = [];
    const started: number[] = [];
    const finish: (() => void)[] = [];
    let ready = true;
    const throttle = new Throttle(
      () => {
        started.push(now);
        return new Promise<void>((resolve) => finish.push(resolve));
      },
      {
        gapMs: () => gap,
        ready: () => ready,
        setTimer: (fn, ms) => {
          const t = { fn, at: now + ms };
          timers.push(t);
          return t;
        },
        clearTimer: (h) => void timers.splice(timers.indexOf(h as (typeof timers)[number]), 1),
        now: () => now,
      },
    );
    const advance = async (ms: number) => {
      now += ms;
      for (;;) {
        const due = timers.filter((t) => t.at <= now).sort((a, b) => a.at - b.at)[0];
        if (!due) break;
        timers.splice(timers.indexOf(due), 1);
        due.fn();
      }
      await Promise.resolve();
    };
    const done = async () => {
      finish.shift()?.();
      for (let i = 0; i < 4; i++) await Promise.resolve();
    };
    return { throttle, advance, done, started, setReady: (r: boolean) => (ready = r) };
  }

  it("runs at once, then at most once per gap, and once after the last request", async () => {
    const { throttle, advance, done, started } = setup();
    throttle.request();
    await advance(0);
    expect(started).toEqual([0]);
    throttle.request();
    throttle.request();
    await advance(100);
    expect(started).toEqual([0]); // one at a time
    await done();
    await advance(500);
    expect(started).toEqual([0]); // not before the gap
    await advance(400);
    expect(started).toEqual([0, 1000]); // the trailing run, once for both requests
    await done();
    await advance(5000);
    expect(started).toEqual([0, 1000]);
  });

  it("skips the gap when asked (a run just finished), and waits while the host is busy", async () => {
    const { throttle, advance, done, started, setReady } = setup();
    throttle.request();
    await advance(0);
    await done();
    throttle.request(true);
    await advance(0);
    expect(started).toEqual([0, 0]);
    await done();
    setReady(false);
    throttle.request();
    await advance(1000);
    expect(started).toHaveLength(2);
    setReady(true);
    await advance(1000);
    expect(started).toEqual([0, 0, 2000]);
  });
});
