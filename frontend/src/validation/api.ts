// The endpoints the validation workspace uses: its own read, and the annotation endpoints
// every workspace writes through (a decision is the `validate` operation).
import { api } from "../api/endpoints";
import { answer, client } from "../api/http";
import type { Id } from "../api/types";

export const validationApi = {
  load: (annotation: Id) =>
    answer(
      client.GET("/api/validation/annotations/{id}/", { params: { path: { id: annotation } } }),
    ),
  operation: api.operation,
  undo: api.undo,
  redo: api.redo,
  cursor: api.cursor,
  submit: api.submit,
};

export type ValidationApi = typeof validationApi;
