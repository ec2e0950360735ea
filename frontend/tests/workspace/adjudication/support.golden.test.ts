// The support cases shared with pytest (fixtures/golden/twins/support.json, read there by
// tests/adjudication/domain/test_golden_support.py): the adjudicated clusters and links that
// the consensus proposes get, in the workspace, the support the consensus gave them.
import { describe, expect, it } from "vitest";
import golden from "../../../../fixtures/golden/twins/support.json";
import type { LinkType } from "../../../src/api/types";
import { AnnotationState, makeMention } from "../../../src/domain/state";
import {
  type AnnotatorVersion,
  buildAdjudication,
} from "../../../src/workspace/adjudication/model";

interface Case {
  name: string;
  mentions: number;
  versions: { clusters: number[][]; rejected: number[]; links: [LinkType, number, number][] }[];
  clusters: { members: number[]; support: number }[];
  links: { link: [LinkType, number, number]; support: number }[];
}
const cases = golden.cases as Case[];

describe("the shared support cases", () => {
  it.each(cases.map((c) => [c.name, c] as const))("%s", (_, c) => {
    // Mention k lies in document 10 at tokens [k, k].
    const ids = Array.from({ length: c.mentions }, (_, i) => i + 1);
    const state = new AnnotationState({
      documents: [[10, c.mentions + 1]],
      mentions: ids.map((k) => makeMention(k, 10, [[k, k]])),
      clusters: c.clusters.map(({ members }, i) => ({ id: 100 + i, label: `C${i}`, members })),
      links: c.links.map(({ link: [type, anaphor, antecedent] }) => ({
        type,
        anaphor,
        antecedent,
      })),
    });
    const versions: AnnotatorVersion[] = c.versions.map((v, a) => ({
      annotation: a,
      annotator: `annotator ${a + 1}`,
      submitted_at: null,
      clusters: v.clusters.map((members, i) => ({
        id: 1000 * (a + 1) + i,
        label: `A${a}.${i}`,
        members,
      })),
      edges: [],
      links: v.links,
      rejected: v.rejected,
      added: [],
      flags: [],
    }));

    const model = buildAdjudication(state, versions, new Map([[10, 0]]));

    expect(c.clusters.map((_, i) => model.clusterSupport.get(100 + i))).toEqual(
      c.clusters.map((k) => k.support),
    );
    expect(c.links.map(({ link }) => model.linkSupport.get(link.join("|")))).toEqual(
      c.links.map((l) => l.support),
    );
  });
});
