// The order in which a validator meets the mentions. Least confident first where the import
// carried confidences (the doubtful ones get fresh eyes); otherwise document order. Cluster by
// cluster keeps one cluster's members together (clusters in document order of their first
// member; inside a cluster, least confident first when there are confidences).
import type { OrderMode, ValidationCluster, ValidationMention } from "./types";

export function hasConfidences(mentions: readonly ValidationMention[]): boolean {
  return mentions.some((m) => m.confidence !== null);
}

export function defaultOrder(mentions: readonly ValidationMention[]): OrderMode {
  return hasConfidences(mentions) ? "confidence" : "document";
}

/** Mention ids in visiting order; `mentions` come in document order. */
export function visitOrder(
  mode: OrderMode,
  mentions: readonly ValidationMention[],
  clusters: readonly ValidationCluster[],
): number[] {
  const rank = new Map(mentions.map((m, i) => [m.id, i]));
  const confidence = new Map(mentions.map((m) => [m.id, m.confidence ?? Number.POSITIVE_INFINITY]));
  const byDoubt = (a: number, b: number) =>
    confidence.get(a)! - confidence.get(b)! || rank.get(a)! - rank.get(b)!;
  if (mode === "document") return mentions.map((m) => m.id);
  if (mode === "confidence") return mentions.map((m) => m.id).sort(byDoubt);
  const first = (c: ValidationCluster) =>
    Math.min(...c.members.map((m) => rank.get(m) ?? Infinity));
  const ordered = [...clusters].sort((a, b) => first(a) - first(b));
  const withScores = hasConfidences(mentions);
  return ordered.flatMap((c) => {
    const members = c.members.filter((m) => rank.has(m));
    return withScores ? members.sort(byDoubt) : members.sort((a, b) => rank.get(a)! - rank.get(b)!);
  });
}
