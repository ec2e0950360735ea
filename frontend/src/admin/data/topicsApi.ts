// The Topics page's rename and delete (annotation/services/topic_changes.py), and where a
// topic's gold is read: the review page, read-only.

import { answer, client } from "../../api/http";
import type { Id } from "../../api/types";

export const goldLink = (annotation: Id): string => `/review/annotations/${annotation}`;

export const topicsApi = {
  rename: (topic: Id, externalId: string) =>
    answer(
      client.PATCH("/api/topics/{id}/manage/", {
        params: { path: { id: topic } },
        body: { external_id: externalId },
      }),
    ),
  /** Refused (422, in words) while the topic has work. */
  remove: (topic: Id) =>
    answer(client.DELETE("/api/topics/{id}/manage/", { params: { path: { id: topic } } })),
};
