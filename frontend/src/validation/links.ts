// Where My topics opens a topic: the validation workspace for a validation project.
import type { AssignmentRow } from "../api/types";

export function topicLink(row: Pick<AssignmentRow, "id" | "annotation" | "project">): string {
  return row.project.validation ? `/validate/annotations/${row.annotation}` : `/annotate/${row.id}`;
}
