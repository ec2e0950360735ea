// Finding clusters by label or by the text of their members (the bank's search, the merge and
// parent pickers).

import type { Id } from "../api/types";
import type { AnnotationState, Mention } from "../domain/state";
import type { TopicModel } from "./topicModel";

const textCache = new WeakMap<Mention, string>();

function memberText(topic: TopicModel, mention: Mention): string {
  let text = textCache.get(mention);
  if (text === undefined) {
    text = topic.text(mention.document, mention.spans).toLowerCase();
    textCache.set(mention, text);
  }
  return text;
}

/** Cluster ids matching `query`, best first: label prefix, label substring, member text. */
export function searchClusters(
  state: AnnotationState,
  topic: TopicModel,
  query: string,
  options: { exclude?: ReadonlySet<Id>; limit?: number } = {},
): Id[] {
  const q = query.trim().toLowerCase();
  const limit = options.limit ?? 200;
  const ranked: [number, Id][] = [];
  for (const cluster of state.clusters.values()) {
    if (options.exclude?.has(cluster.id)) continue;
    if (!q) {
      ranked.push([0, cluster.id]);
      continue;
    }
    const label = cluster.label.toLowerCase();
    let rank = label.startsWith(q) ? 0 : label.includes(q) ? 1 : -1;
    if (rank < 0 && String(cluster.id) === q.replace(/^#/, "")) rank = 1;
    if (rank < 0) {
      for (const id of cluster.members) {
        const mention = state.mentions.get(id);
        if (mention && memberText(topic, mention).includes(q)) {
          rank = 2;
          break;
        }
      }
    }
    if (rank >= 0) ranked.push([rank, cluster.id]);
  }
  ranked.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return ranked.slice(0, limit).map(([, id]) => id);
}
