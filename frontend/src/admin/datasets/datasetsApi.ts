// The dataset release's endpoints (datasets/api/urls.py): a project's statistics (JSON, or the
// CSV download), its splits (read, or made by the seeded balanced split), and one topic's split.

import type { components } from "../../api/schema";
import { answer, client } from "../../api/http";
import type { Id } from "../../api/types";

type Schemas = components["schemas"];
export type StatisticsPage = Schemas["StatisticsPage"];
export type Stats = Schemas["Stats"];
export type ProjectSplits = Schemas["ProjectSplits"];
export type TopicSplit = Schemas["TopicSplit"];
export type StoredRelease = Schemas["StoredReleasePayload"];
export type ReleaseJob = Schemas["ReleaseJobPayload"];

// The project's stored release bundle (a zip), downloaded through the app from var/ or the
// STORAGE_URL bucket.
export const releaseUrl = (project: Id): string => `/api/projects/${project}/release/`;

const sourceQuery = (source: string): string =>
  source && source !== "gold" ? `source=${encodeURIComponent(source)}` : "";

export const statisticsCsvUrl = (project: Id, source: string): string => {
  const query = sourceQuery(source);
  return `/api/projects/${project}/statistics/?format=csv${query ? `&${query}` : ""}`;
};

export const datasetsApi = {
  statistics: (project: Id, source: string) =>
    answer(
      client.GET("/api/projects/{id}/statistics/", {
        params: { path: { id: project }, query: source && source !== "gold" ? { source } : {} },
      }),
    ),
  splits: (project: Id) =>
    answer(client.GET("/api/projects/{id}/splits/", { params: { path: { id: project } } })),
  /** Queue the bundle's build on the worker: the job to poll (releaseJob) until it ends. */
  release: (project: Id, body: Schemas["ReleaseRequestRequest"] = {}) =>
    answer(client.POST("/api/projects/{id}/release/", { params: { path: { id: project } }, body })),
  releaseJob: (job: Id) =>
    answer(client.GET("/api/release-jobs/{id}/", { params: { path: { id: job } } })),
  /** The project's latest release jobs, newest first. */
  releaseJobs: (project: Id) =>
    answer(client.GET("/api/projects/{id}/release-jobs/", { params: { path: { id: project } } })),
  split: (project: Id, body: Schemas["SplitRequestRequest"]) =>
    answer(client.POST("/api/projects/{id}/splits/", { params: { path: { id: project } }, body })),
  setSplit: (topic: Id, split: TopicSplit["split"]) =>
    answer(
      client.PATCH("/api/topics/{id}/split/", { params: { path: { id: topic } }, body: { split } }),
    ),
};
