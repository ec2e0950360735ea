// Keys 1-9: what adopting annotator k's decision for a disagreement sends. Always one ordinary
// operation (so the log, undo and redo treat it like any other edit), or nothing and a word why.

import type { Operation } from "../../api/types";
import type { AnnotationState } from "../../domain/state";
import { type AnnotatorView, decisionCode, type Item, type Place } from "./model";

export type Adoption =
  | { kind: "operation"; operation: Operation; what: string }
  | { kind: "nothing"; why: string };

export interface AdoptNames {
  mention(key: number): string;
  cluster(id: number): string;
}

type State = Pick<AnnotationState, "mentions" | "settings">;

export function adoption(
  item: Item,
  annotator: AnnotatorView,
  state: State,
  places: ReadonlyMap<number, Place>,
  names: AdoptNames,
): Adoption {
  const k = annotator.index;
  const who = annotator.annotator;
  if (item.kind === "mention") {
    const mention = item.mention;
    const decision = item.decisions[k]!;
    const label = names.mention(mention);
    if (decisionCode(decision) === decisionCode(item.current)) {
      return { kind: "nothing", why: `${label} is already as ${who} has it.` };
    }
    const exists = mention >= 0 && state.mentions.has(mention);
    if (!exists) {
      const place = places.get(mention);
      if (!place || (decision.kind !== "cluster" && decision.kind !== "new" && decision.kind !== "unassigned")) {
        return { kind: "nothing", why: `${who} does not have ${label} either.` };
      }
      return {
        kind: "operation",
        operation: { op: "add_mention", document: place.document, spans: place.spans.map(([s, e]) => [s, e]) },
        what: `add ${label}, as ${who} did (then adopt again to place it)`,
      };
    }
    switch (decision.kind) {
      case "cluster":
        return {
          kind: "operation",
          operation: { op: "assign", mention, cluster: decision.cluster },
          what: `move ${label} to ${names.cluster(decision.cluster)}, as ${who} has it`,
        };
      case "new":
        return {
          kind: "operation",
          operation: { op: "assign", mention, cluster: null },
          what: `put ${label} in a new cluster, as ${who} has it`,
        };
      case "rejected":
      case "absent":
        if (!state.settings.allow_reject_mentions) {
          return { kind: "nothing", why: `${who} ${decision.kind === "rejected" ? "rejected" : "does not have"} ${label}, but this project does not allow rejecting mentions.` };
        }
        return {
          kind: "operation",
          operation: { op: "reject_mention", mention },
          what: `reject ${label}, as ${who} ${decision.kind === "rejected" ? "did" : "does not have it"}`,
        };
      case "unassigned":
        return { kind: "nothing", why: `${who} left ${label} in no cluster: move it by hand if you agree.` };
    }
  }
  if (item.kind === "edge") {
    const has = item.has[k]!;
    const what = `${names.cluster(item.child)} under ${names.cluster(item.parent)}`;
    if (has === item.current) return { kind: "nothing", why: `${what}: already as ${who} has it.` };
    if (!has) {
      return {
        kind: "operation",
        operation: { op: "remove_edge", parent: item.parent, child: item.child },
        what: `detach ${names.cluster(item.child)} from ${names.cluster(item.parent)}, as ${who} has it`,
      };
    }
    return {
      kind: "operation",
      operation: state.settings.single_parent
        ? { op: "set_parent", child: item.child, parent: item.parent }
        : { op: "add_edge", parent: item.parent, child: item.child },
      what: `put ${what}, as ${who} has it`,
    };
  }
  const has = item.has[k]!;
  const { type, anaphor, antecedent } = item.link;
  const what = `the ${type} link ${names.mention(anaphor)} → ${names.mention(antecedent)}`;
  if (has === item.current) return { kind: "nothing", why: `${what}: already as ${who} has it.` };
  if (anaphor < 0 || antecedent < 0 || !state.mentions.has(anaphor) || !state.mentions.has(antecedent)) {
    return { kind: "nothing", why: `${what} needs a mention that is not in this annotation yet: adopt that mention first.` };
  }
  return {
    kind: "operation",
    operation: has ? { op: "add_link", type, anaphor, antecedent } : { op: "remove_link", type, anaphor, antecedent },
    what: `${has ? "add" : "remove"} ${what}, as ${who} has it`,
  };
}
