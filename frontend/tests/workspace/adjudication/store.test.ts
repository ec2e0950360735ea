// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from "vitest";
import { nextTick, reactive, ref, shallowRef } from "vue";
import type { Operation } from "../../../src/api/types";
import { AnnotationState, makeMention } from "../../../src/domain/state";
import type { AnnotatorVersion } from "../../../src/workspace/adjudication/model";
import {
  type AdjudicationDeps,
  createAdjudicationStore,
} from "../../../src/workspace/adjudication/store";
import { keyedChoice } from "../../../src/workspace/flags";

// Mentions 1..6 in one document; the adjudication has {1,2,3} {4,5} {6}; carol puts 3 with 4, 5
// and links 6 -> 4; alice agrees with the adjudication.
function version(
  annotator: string,
  clusters: number[][],
  links: AnnotatorVersion["links"] = [],
): AnnotatorVersion {
  return {
    annotation: 0,
    annotator,
    submitted_at: null,
    clusters: clusters.map((members, i) => ({
      id: 100 * annotator.length + i,
      label: annotator,
      members,
    })),
    edges: [],
    links,
    rejected: [],
    added: [],
    flags: [],
  };
}
const VERSIONS = [
  version("alice", [[1, 2, 3], [4, 5], [6]]),
  version("carol", [[1, 2], [3, 4, 5], [6]], [["COREFERENCE", 6, 4]]),
];

function world() {
  const state = reactive(
    new AnnotationState({
      settings: { anaphora: true },
      documents: [[10, 20]],
      mentions: [1, 2, 3, 4, 5, 6].map((id) => makeMention(id, 10, [[id, id]])),
      clusters: [
        { id: 50, label: "A", members: [1, 2, 3] },
        { id: 51, label: "B", members: [4, 5] },
        { id: 52, label: "C", members: [6] },
      ],
    }),
  );
  const sent: Operation[] = [];
  const outcome = { fail: false, apply: (_operation: Operation) => {} };
  const said: string[] = [];
  const current = keyedChoice<number>();
  const store = { state: shallowRef(state), version: ref(1) };
  const deps = {
    annotationId: 77,
    topic: { documentIndex: new Map([[10, 0]]), text: () => "text" },
    store,
    nav: { current, selected: keyedChoice<number>(), anaphor: keyedChoice<number>() },
    editing: {
      op(
        operation: Operation,
        _what: string,
        options?: { done?: (a: unknown) => void; failed?: () => void },
      ) {
        sent.push(operation);
        if (outcome.fail) options?.failed?.();
        else {
          outcome.apply(operation);
          store.version.value++;
          options?.done?.({ created: {} });
        }
      },
    },
    notices: { status: (text: string) => said.push(text), alert: () => undefined },
    commands: { mentionLabel: (id: number) => `m${id}`, clusterLabel: (id: number) => `C${id}` },
    fetchVersions: async () => VERSIONS,
  } as unknown as AdjudicationDeps;
  return {
    adjudication: createAdjudicationStore(deps),
    sent,
    outcome,
    current,
    state,
    store,
    said,
  };
}

describe("the adjudication store", () => {
  beforeEach(() => localStorage.clear());

  it("walks the open disagreements with N and adopts with a digit, one operation each", async () => {
    const { adjudication, sent, current } = world();
    await adjudication.load();
    expect(adjudication.remainingCount.value).toBe(2); // mention 3, the link 6 -> 4

    adjudication.step(1);
    expect(current.value).toBe(3);
    adjudication.adopt(2);

    expect(sent).toEqual([{ op: "assign", mention: 3, cluster: 51 }]);
    expect(adjudication.remainingCount.value).toBe(1);
    adjudication.step(1);
    expect(current.value).toBe(6);
    adjudication.adopt(2);
    expect(sent[1]).toEqual({ op: "add_link", type: "COREFERENCE", anaphor: 6, antecedent: 4 });
    expect(adjudication.remainingCount.value).toBe(0);
  });

  it("settles an item by adopting a decision it already has, without sending anything", async () => {
    const { adjudication, sent } = world();
    await adjudication.load();
    adjudication.step(1);

    adjudication.adopt(1); // alice has it as the adjudication does

    expect(sent).toEqual([]);
    expect(adjudication.remainingCount.value).toBe(1);
  });

  it("keeps the settled marks for the next visit", async () => {
    const first = world();
    await first.adjudication.load();
    first.adjudication.step(1);
    first.adjudication.adopt(1);

    const again = world();
    await again.adjudication.load();

    expect(again.adjudication.remainingCount.value).toBe(1);
  });

  it("reopens an item whose operation was refused", async () => {
    const { adjudication, outcome } = world();
    await adjudication.load();
    adjudication.step(1);
    outcome.fail = true;

    adjudication.adopt(2);

    expect(adjudication.remainingCount.value).toBe(2);
  });

  it("settles an item the adjudicator changed by hand", async () => {
    const { adjudication, state, store } = world();
    await adjudication.load();
    await nextTick();

    state.setMember(3, 51);
    store.version.value++;
    await nextTick();

    expect(adjudication.remainingCount.value).toBe(1);
  });

  it("says 'as carol has it' only when carol's decision and the adjudicated one agree after the change", async () => {
    const { adjudication, outcome, state, said } = world();
    await adjudication.load();
    outcome.apply = (op) => {
      if (op.op === "assign") state.setMember(op.mention, op.cluster);
    };
    adjudication.step(1);
    adjudication.adopt(2); // mention 3 to carol's cluster, B

    expect(said.at(-1)).toBe(
      "Adopted carol's decision: move m3 to C51, as carol has it. N: next disagreement.",
    );

    // The server's answer moved it elsewhere (another tab, a realignment): the notice says so.
    localStorage.clear();
    const again = world();
    await again.adjudication.load();
    again.outcome.apply = () => again.state.setMember(3, 52);
    again.adjudication.step(1);
    again.adjudication.adopt(2);

    expect(again.said.at(-1)).toMatch(
      /^Done: move m3 to C51\. carol's clusters now line up with yours differently, so this still differs from carol/,
    );
  });
});
