// The TypeScript twin of tests/domain/operations/factories.py: 12 mentions in 3 documents of
// 40 tokens; mention k lies in document (k - 1) // 4 + 1 at tokens [4j, 4j + 1], j = (k - 1) % 4.

import type { Id, LinkType } from "../../src/api/types";
import { AnnotationState, makeMention, type Settings } from "../../src/domain/state";

export function topic(
  clusters: Record<number, [string, Id[], string?]> = {},
  options: {
    edges?: [Id, Id][];
    links?: [LinkType, Id, Id][];
    rejected?: Id[];
    settings?: Partial<Settings>;
  } = {},
): AnnotationState {
  const mentions = [];
  for (let k = 1; k <= 12; k++) {
    const j = (k - 1) % 4;
    mentions.push(
      makeMention(
        k,
        Math.floor((k - 1) / 4) + 1,
        [[4 * j, 4 * j + 1]],
        false,
        (options.rejected ?? []).includes(k),
      ),
    );
  }
  return new AnnotationState({
    settings: options.settings,
    documents: [
      [1, 40],
      [2, 40],
      [3, 40],
    ],
    mentions,
    clusters: Object.entries(clusters).map(([id, [label, members, note]]) => ({
      id: Number(id),
      label,
      note: note ?? "",
      members,
    })),
    edges: options.edges ?? [],
    links: (options.links ?? []).map(([type, anaphor, antecedent]) => ({
      type,
      anaphor,
      antecedent,
    })),
  });
}
