import { describe, expect, it } from "vitest";
import { documentMeta, mentionText } from "../../src/domain/documents";
import { buildPieces, type Piece } from "../../src/domain/pieces";
import { treeRows } from "../../src/workspace/hierarchyRows";

function outline(pieces: Piece[]): string {
  return pieces
    .map((p) =>
      p.kind === "text"
        ? `${p.start}-${p.end}`
        : `[m${p.mention}${p.children.length ? ` ${outline(p.children)}` : ""}]`,
    )
    .join(" ");
}

describe("document pieces", () => {
  it("cuts the text into token runs and mentions", () => {
    expect(outline(buildPieces(10, [{ id: 1, spans: [[2, 3]] }]))).toBe("0-1 [m1 2-3] 4-9");
  });

  it("nests a mention inside another", () => {
    expect(
      outline(
        buildPieces(8, [
          { id: 1, spans: [[1, 5]] },
          { id: 2, spans: [[2, 3]] },
        ]),
      ),
    ).toBe("0-0 [m1 1-1 [m2 2-3] 4-5] 6-7");
  });

  it("shows each part of a discontinuous mention", () => {
    const pieces = buildPieces(10, [
      {
        id: 1,
        spans: [
          [1, 1],
          [4, 5],
        ],
      },
    ]);
    expect(outline(pieces)).toBe("0-0 [m1 1-1] 2-3 [m1 4-5] 6-9");
  });

  it("cuts a mention that crosses the end of another in two", () => {
    expect(
      outline(
        buildPieces(8, [
          { id: 1, spans: [[1, 3]] },
          { id: 2, spans: [[2, 5]] },
        ]),
      ),
    ).toBe("0-0 [m1 1-1 [m2 2-3]] [m2 4-5] 6-7");
  });
});

describe("document metadata", () => {
  it("reads SciCo's keys (BookTitle, Year, url) and the plain ones", () => {
    expect(
      documentMeta({ title: "T", BookTitle: "ACL", Year: "2019", url: "https://x.org/p" }),
    ).toEqual({
      title: "T",
      venue: "ACL",
      year: "2019",
      url: "https://x.org/p",
    });
    expect(documentMeta({ venue: "EMNLP", year: 2020 })).toEqual({
      title: null,
      venue: "EMNLP",
      year: "2020",
      url: null,
    });
  });

  it("links only web addresses", () => {
    expect(documentMeta({ url: "javascript:alert(1)" }).url).toBeNull();
  });

  it("joins the parts of a discontinuous mention with an ellipsis", () => {
    expect(
      mentionText(
        ["the", "acid", "(", "2", "g", ")", "and", "salt"],
        [
          [0, 1],
          [7, 7],
        ],
      ),
    ).toBe("the acid … salt");
    expect(mentionText(["acid", "(", "2", "g", ")"], [[0, 4]])).toBe("acid (2 g)");
  });
});

describe("hierarchy rows", () => {
  const graph = (edges: [number, number][], ids: number[], collapsed: number[] = []) => {
    const parents = new Map<number, Set<number>>(ids.map((id) => [id, new Set()]));
    const children = new Map<number, Set<number>>(ids.map((id) => [id, new Set()]));
    for (const [p, c] of edges) {
      parents.get(c)!.add(p);
      children.get(p)!.add(c);
    }
    return treeRows({
      clusterIds: ids,
      parents: (id) => parents.get(id),
      children: (id) => children.get(id),
      collapsed: (id) => collapsed.includes(id),
    });
  };

  it("lists top-level clusters with their subtrees, depth first", () => {
    const rows = graph(
      [
        [1, 2],
        [2, 3],
      ],
      [1, 2, 3, 4],
    );
    expect(rows.map((r) => [r.cluster, r.depth, r.parent])).toEqual([
      [1, 0, null],
      [2, 1, 1],
      [3, 2, 2],
      [4, 0, null],
    ]);
  });

  it("shows a cluster with two parents under each (a DAG)", () => {
    const rows = graph(
      [
        [1, 3],
        [2, 3],
      ],
      [1, 2, 3],
    );
    expect(rows.map((r) => r.key)).toEqual(["1", "1/3", "2", "2/3"]);
  });

  it("hides the subtree of a collapsed cluster", () => {
    const rows = graph(
      [
        [1, 2],
        [2, 3],
      ],
      [1, 2, 3],
      [2],
    );
    expect(rows.map((r) => r.cluster)).toEqual([1, 2]);
    expect(rows[1]).toMatchObject({ hasChildren: true, expanded: false });
  });
});
