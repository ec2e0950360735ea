// The tree's rows: suggested edges are dashed rows after the real children of their parent.
import { describe, expect, it } from "vitest";
import type { Id } from "../../src/api/types";
import { type SuggestedChild, treeRows } from "../../src/workspace/hierarchyRows";

function tree(
  edges: [Id, Id][],
  suggested: Record<Id, SuggestedChild[]> = {},
  collapsed: Id[] = [],
) {
  const parents = new Map<Id, Set<Id>>();
  const children = new Map<Id, Set<Id>>();
  const ids = [1, 2, 3, 4];
  for (const id of ids) {
    parents.set(id, new Set());
    children.set(id, new Set());
  }
  for (const [p, c] of edges) {
    parents.get(c)!.add(p);
    children.get(p)!.add(c);
  }
  return treeRows({
    clusterIds: ids,
    parents: (id) => parents.get(id),
    children: (id) => children.get(id),
    collapsed: (id) => collapsed.includes(id),
    suggested: (id) => suggested[id],
  });
}

describe("suggested edges in the tree", () => {
  it("adds a row for the suggested child after the parent's real children", () => {
    const rows = tree([[1, 2]], { 1: [{ child: 3, suggestion: 70, score: 0.8 }] });
    expect(rows.map((r) => [r.key, r.cluster, r.parent, r.depth, r.suggestion])).toEqual([
      ["1", 1, null, 0, undefined],
      ["1/2", 2, 1, 1, undefined],
      ["1/~70", 3, 1, 1, 70],
      ["3", 3, null, 0, undefined],
      ["4", 4, null, 0, undefined],
    ]);
  });

  it("shows it under a leaf too, and hides it under a collapsed parent", () => {
    expect(tree([], { 4: [{ child: 1, suggestion: 5, score: 0.6 }] }).map((r) => r.key)).toEqual([
      "1",
      "2",
      "3",
      "4",
      "4/~5",
    ]);
    expect(
      tree([[1, 2]], { 1: [{ child: 3, suggestion: 70, score: 0.8 }] }, [1]).map((r) => r.key),
    ).toEqual(["1", "3", "4"]);
  });
});
