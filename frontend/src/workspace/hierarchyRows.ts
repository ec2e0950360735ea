// The hierarchy as the rows of a tree view: depth-first from the top-level clusters, children
// in creation order. In a DAG a cluster with several parents appears under each of them; a
// row is identified by its path, and `parent` is the parent it is shown under. Suggested edges
// (model suggestions) add a dashed row for the suggested child under its suggested parent,
// after the real children; it has no children of its own.

import type { Id } from "../api/types";

export interface TreeRow {
  key: string;
  cluster: Id;
  parent: Id | null;
  depth: number;
  hasChildren: boolean;
  expanded: boolean;
  /** Set on a suggested-edge row: the suggestion it stands for and its score. */
  suggestion?: Id;
  score?: number;
}

export interface SuggestedChild {
  child: Id;
  suggestion: Id;
  score: number;
}

export interface TreeSource {
  clusterIds: Iterable<Id>;
  parents: (id: Id) => ReadonlySet<Id> | undefined;
  children: (id: Id) => ReadonlySet<Id> | undefined;
  collapsed: (id: Id) => boolean;
  /** Suggested children of a cluster (shown as dashed rows). */
  suggested?: (id: Id) => readonly SuggestedChild[] | undefined;
}

export function treeRows(source: TreeSource): TreeRow[] {
  const rows: TreeRow[] = [];
  const roots = [...source.clusterIds]
    .filter((id) => (source.parents(id)?.size ?? 0) === 0)
    .sort((a, b) => a - b);
  const visit = (id: Id, parent: Id | null, depth: number, path: string, onPath: Set<Id>) => {
    const children = [...(source.children(id) ?? [])].sort((a, b) => a - b);
    const expanded = children.length > 0 && !source.collapsed(id);
    rows.push({
      key: path,
      cluster: id,
      parent,
      depth,
      hasChildren: children.length > 0,
      expanded,
    });
    if (expanded) {
      onPath.add(id);
      for (const child of children) {
        if (!onPath.has(child)) visit(child, id, depth + 1, `${path}/${child}`, onPath);
      }
      onPath.delete(id);
    }
    if (expanded || children.length === 0) {
      for (const s of source.suggested?.(id) ?? []) {
        rows.push({
          key: `${path}/~${s.suggestion}`,
          cluster: s.child,
          parent: id,
          depth: depth + 1,
          hasChildren: false,
          expanded: false,
          suggestion: s.suggestion,
          score: s.score,
        });
      }
    }
  };
  for (const root of roots) visit(root, null, 0, String(root), new Set());
  return rows;
}

/** The ancestors of a cluster (all of them, for revealing it in a collapsed tree). */
export function ancestors(id: Id, parents: (id: Id) => ReadonlySet<Id> | undefined): Set<Id> {
  const seen = new Set<Id>();
  const stack = [...(parents(id) ?? [])];
  while (stack.length) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(parents(next) ?? []));
  }
  return seen;
}
