// Keys 1-9: what adopting annotator k's decision for a disagreement sends. Always one ordinary
// operation (so the log, undo and redo treat it like any other edit), or nothing and a word why.

import type { Operation } from "../../api/types";
import type { AnnotationState } from "../../domain/state";
import { type AnnotatorView, decisionCode, type Item, type Place } from "./model";

export type Adoption =
  /** `action`: what the operation does; `what`: the same, saying whose decision it is. */
  | { kind: "operation"; operation: Operation; what: string; action: string }
  | { kind: "nothing"; why: string };

export interface AdoptNames {
  mention(key: number): string;
  cluster(id: number): string;
}

/** "child under parent", saying so when two clusters share a label (the adjudicator may rename
 * one like another; the walk read "GraphSAGE under GraphSAGE" as a cluster under itself). */
export const underText = (child: string, parent: string): string =>
  child === parent
    ? `${child} under another cluster also labelled ${parent}`
    : `${child} under ${parent}`;

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
  const as = (action: string, tail = "has it") => ({
    action,
    what: `${action}, as ${who} ${tail}`,
  });
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
      if (
        !place ||
        (decision.kind !== "cluster" && decision.kind !== "new" && decision.kind !== "unassigned")
      ) {
        return { kind: "nothing", why: `${who} does not have ${label} either.` };
      }
      return {
        kind: "operation",
        operation: {
          op: "add_mention",
          document: place.document,
          spans: place.spans.map(([s, e]) => [s, e]),
        },
        action: `add ${label}`,
        what: `add ${label}, as ${who} did (then adopt again to place it)`,
      };
    }
    switch (decision.kind) {
      case "cluster":
        return {
          kind: "operation",
          operation: { op: "assign", mention, cluster: decision.cluster },
          ...as(`move ${label} to ${names.cluster(decision.cluster)}`),
        };
      case "new":
        return {
          kind: "operation",
          operation: { op: "assign", mention, cluster: null },
          ...as(`put ${label} in a new cluster`),
        };
      case "rejected":
      case "absent":
        if (!state.settings.allow_reject_mentions) {
          return {
            kind: "nothing",
            why: `${who} ${decision.kind === "rejected" ? "rejected" : "does not have"} ${label}, but this project does not allow rejecting mentions.`,
          };
        }
        return {
          kind: "operation",
          operation: { op: "reject_mention", mention },
          ...as(`reject ${label}`, decision.kind === "rejected" ? "did" : "does not have it"),
        };
      case "unassigned":
        return {
          kind: "nothing",
          why: `${who} left ${label} in no cluster: move it by hand if you agree.`,
        };
    }
  }
  if (item.kind === "edge") {
    const has = item.has[k]!;
    const what = underText(names.cluster(item.child), names.cluster(item.parent));
    if (has === item.current) return { kind: "nothing", why: `${what}: already as ${who} has it.` };
    if (!has) {
      return {
        kind: "operation",
        operation: { op: "remove_edge", parent: item.parent, child: item.child },
        ...as(`detach ${names.cluster(item.child)} from ${names.cluster(item.parent)}`),
      };
    }
    return {
      kind: "operation",
      operation: state.settings.single_parent
        ? { op: "set_parent", child: item.child, parent: item.parent }
        : { op: "add_edge", parent: item.parent, child: item.child },
      ...as(`put ${what}`),
    };
  }
  const has = item.has[k]!;
  const { type, anaphor, antecedent } = item.link;
  const what = `the ${type} link ${names.mention(anaphor)} → ${names.mention(antecedent)}`;
  if (has === item.current) return { kind: "nothing", why: `${what}: already as ${who} has it.` };
  if (
    anaphor < 0 ||
    antecedent < 0 ||
    !state.mentions.has(anaphor) ||
    !state.mentions.has(antecedent)
  ) {
    return {
      kind: "nothing",
      why: `${what} needs a mention that is not in this annotation yet: adopt that mention first.`,
    };
  }
  return {
    kind: "operation",
    operation: has
      ? { op: "add_link", type, anaphor, antecedent }
      : { op: "remove_link", type, anaphor, antecedent },
    ...as(`${has ? "add" : "remove"} ${what}`),
  };
}
