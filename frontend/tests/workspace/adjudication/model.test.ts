import { describe, expect, it } from "vitest";
import { AnnotationState, makeMention } from "../../../src/domain/state";
import { adoption } from "../../../src/workspace/adjudication/adopt";
import { type AnnotatorVersion, buildAdjudication, type Item } from "../../../src/workspace/adjudication/model";
import { remaining, settleChanged, stepItem } from "../../../src/workspace/adjudication/queue";

// Six candidate mentions 1..6 in one document (id = first token), three annotators.
const documentIndex = new Map([[10, 0]]);
const mentions = [1, 2, 3, 4, 5, 6].map((id) => makeMention(id, 10, [[id, id]]));

function version(annotator: string, clusters: number[][], extra: Partial<AnnotatorVersion> = {}): AnnotatorVersion {
  return {
    annotation: 0,
    annotator,
    submitted_at: null,
    clusters: clusters.map((members, i) => ({ id: 1000 * (annotator.charCodeAt(0)) + i, label: `${annotator}${i}`, members })),
    edges: [],
    links: [],
    rejected: [],
    added: [],
    flags: [],
    ...extra,
  };
}

function adjudicated(clusters: number[][], init: { edges?: [number, number][]; settings?: object } = {}) {
  return new AnnotationState({
    settings: { allow_reject_mentions: true, anaphora: true, ...init.settings },
    documents: [[10, 20]],
    mentions,
    clusters: clusters.map((members, i) => ({ id: 50 + i, label: `A${i}`, members })),
    edges: init.edges,
  });
}

const names = { mention: (k: number) => `m${k}`, cluster: (id: number) => `C${id}` };

describe("buildAdjudication", () => {
  // alice and bob: {1,2,3} {4,5} {6}; carol: {1,2} {3,4,5} {6}
  const versions = [
    version("alice", [[1, 2, 3], [4, 5], [6]]),
    version("bob", [[1, 2, 3], [4, 5], [6]]),
    version("carol", [[1, 2], [3, 4, 5], [6]]),
  ];

  it("lists the mention placed differently, with each annotator's decision", () => {
    const model = buildAdjudication(adjudicated([[1, 2, 3], [4, 5], [6]]), versions, documentIndex);

    expect(model.items.map((i) => i.key)).toEqual(["m:3"]);
    const item = model.items[0]! as Extract<Item, { kind: "mention" }>;
    expect(item.support).toBe(2);
    expect(item.decisions.map((d) => d.kind === "cluster" && d.cluster)).toEqual([50, 50, 51]);
  });

  it("aligns each annotator's clusters to the adjudicated ones (matching colours)", () => {
    const model = buildAdjudication(adjudicated([[1, 2, 3], [4, 5], [6]]), versions, documentIndex);
    const carol = model.annotators[2]!;

    expect(carol.aligned.get(carol.clusterOf.get(1)!)).toBe(50);
    expect(carol.aligned.get(carol.clusterOf.get(4)!)).toBe(51);
  });

  it("updates support when the adjudicated annotation changes", () => {
    const state = adjudicated([[1, 2, 3], [4, 5], [6]]);
    state.setMember(3, 51);

    const model = buildAdjudication(state, versions, documentIndex);

    expect(model.clusterSupport.get(51)).toBe(1);
    expect((model.items[0] as Extract<Item, { kind: "mention" }>).support).toBe(1);
  });

  it("counts edges through the alignment and lists the ones some annotators lack", () => {
    const withEdge = (v: AnnotatorVersion): AnnotatorVersion => ({ ...v, edges: [[v.clusters[0]!.id, v.clusters[1]!.id]] });
    const model = buildAdjudication(
      adjudicated([[1, 2, 3], [4, 5], [6]], { edges: [[50, 51]] }),
      [withEdge(versions[0]!), versions[1]!, withEdge(versions[2]!)],
      documentIndex,
    );

    expect(model.edgeSupport.get("50>51")).toBe(2);
    const edge = model.items.find((i) => i.kind === "edge")!;
    expect(edge.key).toBe("e:50>51");
    expect(adoption(edge, model.annotators[1]!, adjudicated([]), model.places, names)).toMatchObject({
      kind: "operation",
      operation: { op: "remove_edge", parent: 50, child: 51 },
    });
  });

  it("lists links some annotators lack, and adopting one adds it", () => {
    const link: ["COREFERENCE", number, number] = ["COREFERENCE", 6, 4];
    const model = buildAdjudication(
      adjudicated([[1, 2, 3], [4, 5], [6]]),
      [{ ...versions[0]!, links: [link] }, versions[1]!, versions[2]!],
      documentIndex,
    );

    const item = model.items.find((i) => i.kind === "link")!;
    expect(item.key).toBe("l:COREFERENCE|6|4");
    expect(adoption(item, model.annotators[0]!, adjudicated([]), model.places, names)).toMatchObject({
      kind: "operation",
      operation: { op: "add_link", type: "COREFERENCE", anaphor: 6, antecedent: 4 },
    });
  });

  it("lists mentions some annotators rejected or added, matching added ones by place", () => {
    const added = { id: 900, document: 10, spans: [[8, 9]] as [number, number][] };
    const model = buildAdjudication(
      adjudicated([[1, 2, 3], [4, 5], [6]]),
      [
        { ...versions[0]!, rejected: [6], clusters: versions[0]!.clusters.slice(0, 2) },
        { ...versions[1]!, added: [added], clusters: [...versions[1]!.clusters, { id: 7, label: "x", members: [900] }] },
        versions[2]!,
      ],
      documentIndex,
    );

    expect(model.items.map((i) => i.key)).toEqual(["m:3", "m:6", "m:-1"]);
    const rejected = model.items[1]!;
    expect(adoption(rejected, model.annotators[0]!, adjudicated([]), model.places, names)).toMatchObject({
      operation: { op: "reject_mention", mention: 6 },
    });
    const addedItem = model.items[2]!;
    expect(adoption(addedItem, model.annotators[1]!, adjudicated([]), model.places, names)).toMatchObject({
      operation: { op: "add_mention", document: 10, spans: [[8, 9]] },
    });
  });
});

describe("adopting a mention's placement", () => {
  const versions = [
    version("alice", [[1, 2, 3], [4, 5], [6]]),
    version("bob", [[1, 2, 3], [4, 5], [6]]),
    version("carol", [[1, 2], [3, 4, 5], [6]]),
  ];
  const state = adjudicated([[1, 2, 3], [4, 5], [6]]);
  const model = buildAdjudication(state, versions, documentIndex);
  const item = model.items[0]!;

  it("moves it to the adjudicated cluster aligned to the annotator's", () => {
    expect(adoption(item, model.annotators[2]!, state, model.places, names)).toMatchObject({
      kind: "operation",
      operation: { op: "assign", mention: 3, cluster: 51 },
    });
  });

  it("sends nothing when the annotation already has that annotator's decision", () => {
    expect(adoption(item, model.annotators[0]!, state, model.places, names).kind).toBe("nothing");
  });

  it("puts it in a new cluster when the annotator's cluster matches none", () => {
    const lonely = buildAdjudication(state, [version("dan", [[1, 2], [3], [4, 5], [6]]), versions[0]!], documentIndex);
    expect(adoption(lonely.items[0]!, lonely.annotators[0]!, state, lonely.places, names)).toMatchObject({
      operation: { op: "assign", mention: 3, cluster: null },
    });
  });
});

describe("the queue", () => {
  const items = ["a", "b", "c"].map((key) => ({ key }) as Item);

  it("steps forward and back through the open items, wrapping", () => {
    const settled = new Set(["b"]);
    expect(stepItem(items, settled, null, 1)!.key).toBe("a");
    expect(stepItem(items, settled, "a", 1)!.key).toBe("c");
    expect(stepItem(items, settled, "c", 1)!.key).toBe("a");
    expect(stepItem(items, settled, "a", -1)!.key).toBe("c");
    expect(stepItem(items, settled, null, -1)!.key).toBe("c");
  });

  it("goes on from where a vanished item was", () => {
    expect(stepItem(items, new Set(), "gone", 1, 1)!.key).toBe("b");
  });

  it("has nothing to go to once all are settled", () => {
    expect(stepItem(items, new Set(["a", "b", "c"]), "a", 1)).toBeNull();
    expect(remaining(items, new Set(["a"])).map((i) => i.key)).toEqual(["b", "c"]);
  });

  it("settles an item the adjudicator changed by hand", () => {
    const versions = [version("alice", [[1, 2, 3], [4, 5], [6]]), version("carol", [[1, 2], [3, 4, 5], [6]])];
    const state = adjudicated([[1, 2, 3], [4, 5], [6]]);
    const seen = new Map<string, string>();
    expect(settleChanged(buildAdjudication(state, versions, documentIndex).items, seen, new Set())).toEqual([]);

    state.setMember(3, 51);

    expect(settleChanged(buildAdjudication(state, versions, documentIndex).items, seen, new Set())).toEqual(["m:3"]);
  });
});
