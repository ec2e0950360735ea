// One function per admin endpoint (annotation/api/urls.py "admins", modelserve/urls.py), each
// typed by its path in the generated schema (see http.ts).

import type {
  ArchiveImportRequest,
  AssignRequest,
  BulkAction,
  EvaluationGold,
  ImportFormat,
  ImportRaw,
  ImportRequest,
  LearnProfile,
  ModelChoice,
  Project,
  ProjectInput,
  ProjectRow,
  SuggestionSettings,
} from "./adminTypes";
import { ApiError, answer, backendOf, client, errorBody, multipart, NetworkError } from "./http";
import type { Id } from "./types";

const id = (value: Id) => ({ params: { path: { id: value } } });

const query = (params: Record<string, string | undefined>): string => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : "";
};

export const exportUrl = (project: Id, format: string, source: string): string =>
  `/api/projects/${project}/export/${query({ format, source })}`;

export const evaluationsCsvUrl = (runs: Id[]): string =>
  `/api/model-evaluations/csv/${query({ runs: runs.join(",") })}`;

export const agreementCsvUrl = (project: Id): string =>
  `/api/projects/${project}/agreement/?format=csv`;
/** Every table of the agreement report (pairs, vs gold, validation, left out), one CSV each, in a zip. */
export const agreementZipUrl = (project: Id): string =>
  `/api/projects/${project}/agreement/?format=zip`;

/** What the diagnosis compares: all annotators of the topic, or gold beside them (or one). */
export interface DiagnosisScope {
  topic: string;
  gold?: boolean;
  annotator?: string;
}

export const diagnosisCsvUrl = (project: Id, scope: DiagnosisScope): string =>
  `/api/projects/${project}/agreement/diagnosis/${query({
    topic: scope.topic,
    gold: scope.gold ? "true" : undefined,
    annotator: scope.annotator,
    format: "csv",
  })}`;

export const timeCsvUrl = (project: Id): string => `/api/projects/${project}/time/?format=csv`;

/** A project as the core sends it: its suggestion settings belong to the suggestions app
 * (modelserve), which has its own endpoint; the admin pages show both together. */
const withSettings = (row: Project, settings: SuggestionSettings | undefined): ProjectRow => ({
  ...row,
  suggestion_backend: settings?.backend ?? "",
  suggestion_params: settings?.params ?? {},
});

const putSettings = (project: Id, backend?: string, params?: Record<string, unknown>) =>
  answer(
    client.PUT("/api/projects/{id}/suggestion-settings/", {
      ...id(project),
      body: { ...backendOf(backend), ...(params === undefined ? {} : { params }) },
    }),
  );

async function errorOf(response: Response): Promise<ApiError> {
  let data: unknown = null;
  try {
    data = await response.json();
  } catch {
    // not JSON: keep the generic message
  }
  return new ApiError(response.status, errorBody(response.status, data));
}

/**
 * What the export's writer could not hold, from the `X-Export-Warnings` header (a JSON list of
 * strings); none when the header is absent or unreadable, since the file itself arrived.
 */
export function exportWarnings(header: string | null): string[] {
  if (!header) return [];
  try {
    const value: unknown = JSON.parse(header);
    return Array.isArray(value)
      ? value.filter((item): item is string => typeof item === "string")
      : [];
  } catch {
    return [];
  }
}

/** A file download: the body, the name the server gave it and the writer's warnings. */
async function download(
  path: string,
): Promise<{ blob: Blob; filename: string; warnings: string[] }> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: "same-origin" });
  } catch (error) {
    throw new NetworkError(
      error instanceof Error ? `The server cannot be reached (${error.message}).` : undefined,
    );
  }
  if (!response.ok) throw await errorOf(response);
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? "export";
  return {
    blob: await response.blob(),
    filename,
    warnings: exportWarnings(response.headers.get("X-Export-Warnings")),
  };
}

export const adminApi = {
  projects: async (): Promise<ProjectRow[]> => {
    const [rows, settings] = await Promise.all([
      answer(client.GET("/api/projects/")),
      answer(client.GET("/api/suggestion-settings/")),
    ]);
    const byProject = new Map(settings.map((s) => [s.project, s]));
    return rows.map((row) => withSettings(row, byProject.get(row.id)));
  },
  project: async (project: Id): Promise<ProjectRow> => {
    const [row, settings] = await Promise.all([
      answer(client.GET("/api/projects/{id}/", id(project))),
      answer(client.GET("/api/projects/{id}/suggestion-settings/", id(project))),
    ]);
    return withSettings(row, settings);
  },
  createProject: async (input: ProjectInput): Promise<ProjectRow> => {
    const { suggestion_backend, suggestion_params, ...fields } = input;
    const row = await answer(client.POST("/api/projects/", { body: fields }));
    return withSettings(row, await putSettings(row.id, suggestion_backend, suggestion_params));
  },
  updateProject: async (project: Id, input: Partial<ProjectInput>): Promise<ProjectRow> => {
    const { suggestion_backend, suggestion_params, ...fields } = input;
    const row = await answer(client.PATCH("/api/projects/{id}/", { ...id(project), body: fields }));
    return withSettings(row, await putSettings(project, suggestion_backend, suggestion_params));
  },
  deleteProject: (project: Id, confirm: boolean) =>
    answer(
      client.DELETE("/api/projects/{id}/", {
        params: { path: { id: project }, query: confirm ? { confirm: "true" } : {} },
      }),
    ),
  suggestionBackends: () => answer(client.GET("/api/suggestion-backends/")),
  topics: (project: Id) => answer(client.GET("/api/projects/{id}/topics/", id(project))),
  progress: (project: Id) => answer(client.GET("/api/projects/{id}/progress/", id(project))),
  timeReport: (project: Id) => answer(client.GET("/api/projects/{id}/time/", id(project))),
  importTopics: (
    project: Id,
    file: File,
    format: ImportFormat,
    skipInvalid: boolean,
    raw: ImportRaw = "",
  ) =>
    answer(
      client.POST("/api/projects/{id}/imports/", {
        ...id(project),
        body: multipart<ImportRequest>({ file, format, skip_invalid: skipInvalid, raw }),
      }),
    ),
  /** A project archive (manage.py export_project's zip) as a new project. */
  importArchive: (file: File, name: string, inMyTopics: boolean) =>
    answer(
      client.POST("/api/project-archives/", {
        body: multipart<ArchiveImportRequest>({ file, name, in_my_topics: inMyTopics }),
      }),
    ),
  importJob: (job: Id) => answer(client.GET("/api/import-jobs/{id}/", id(job))),
  exportFile: (project: Id, format: string, source: string) =>
    download(exportUrl(project, format, source)),
  agreement: (project: Id) => answer(client.GET("/api/projects/{id}/agreement/", id(project))),
  diagnosis: (project: Id, scope: DiagnosisScope) =>
    answer(
      client.GET("/api/projects/{id}/agreement/diagnosis/", {
        params: {
          path: { id: project },
          query: {
            topic: scope.topic,
            gold: scope.gold ?? false,
            annotator: scope.annotator ?? "",
          },
        },
      }),
    ),
  users: () => answer(client.GET("/api/users/")),
  createUser: (username: string, password: string, isAdmin: boolean) =>
    answer(client.POST("/api/users/", { body: { username, password, is_admin: isAdmin } })),
  updateUser: (user: Id, change: { password?: string; is_admin?: boolean; is_active?: boolean }) =>
    answer(client.PATCH("/api/users/{id}/", { ...id(user), body: change })),
  assign: (body: AssignRequest) => answer(client.POST("/api/assignments/", { body })),
  reassign: (assignment: Id, user: Id, discardWork: boolean) =>
    answer(
      client.POST("/api/assignments/{id}/reassign/", {
        ...id(assignment),
        body: { user, discard_work: discardWork },
      }),
    ),
  reopen: (assignment: Id) => answer(client.POST("/api/assignments/{id}/reopen/", id(assignment))),
  deleteAssignment: (assignment: Id, discardWork: boolean) =>
    answer(
      client.DELETE("/api/assignments/{id}/", {
        params: { path: { id: assignment }, query: discardWork ? { discard_work: "true" } : {} },
      }),
    ),
  bulk: (action: BulkAction, assignments: Id[], discardWork = false) =>
    answer(
      client.POST("/api/assignments/bulk/", {
        body: { action, assignments, discard_work: discardWork },
      }),
    ),
  acceptance: (project: Id) =>
    answer(client.GET("/api/projects/{id}/suggestion-acceptance/", id(project))),
  modelTrainings: () => answer(client.GET("/api/model-trainings/")),
  /** Learning in the loop (docs/learning.md): the project's learnt versions and its training. */
  modelVersions: (project: Id) =>
    answer(client.GET("/api/projects/{id}/model-versions/", id(project))),
  /** Runs use `version` from now on (a rollback or roll forward), or the base model (`base`);
   * neither: the automatic choice (the newest eligible version, else the base model). */
  pinModelVersion: (project: Id, version: Id | null, base = false) =>
    answer(
      client.PUT("/api/projects/{id}/model-versions/pinned/", {
        ...id(project),
        body: { version, base },
      }),
    ),
  setLearning: (project: Id, learn: boolean) =>
    answer(
      client.PUT("/api/projects/{id}/suggestion-settings/", { ...id(project), body: { learn } }),
    ),
  suggestionSettings: (project: Id) =>
    answer(client.GET("/api/projects/{id}/suggestion-settings/", id(project))),
  /** What learning fine-tunes from (an encoder folder the server allows; "": the packaged
   * MiniLM) and the cross-encoder's training profile; the answer has the folder resolved. */
  setLearnFrom: (project: Id, encoder: string, profile: LearnProfile) =>
    answer(
      client.PUT("/api/projects/{id}/suggestion-settings/", {
        ...id(project),
        body: { learn_encoder: encoder, learn_profile: profile },
      }),
    ),
  evaluationChoices: (project: Id) =>
    answer(client.GET("/api/projects/{id}/model-evaluation-choices/", id(project))),
  evaluations: (project: Id) =>
    answer(client.GET("/api/projects/{id}/model-evaluations/", id(project))),
  evaluation: (evaluation: Id) =>
    answer(client.GET("/api/model-evaluations/{id}/", id(evaluation))),
  /** `model`: a learnt version (its id goes as `version`), a trained folder, or null for the
   * backend's own model. */
  /** `includeTrained`: score the topics a compared model was trained on too (marked), which
   * are left out by default. */
  startEvaluation: (
    project: Id,
    backend: string,
    goldSource: EvaluationGold,
    model: ModelChoice | null,
    includeTrained = false,
  ) =>
    answer(
      client.POST("/api/projects/{id}/model-evaluations/", {
        ...id(project),
        body: {
          backend,
          gold_source: goldSource,
          include_trained: includeTrained,
          ...(model?.version
            ? { version: model.version.id }
            : { model_version: model?.model_version ?? "" }),
        },
      }),
    ),
  suggestEveryTopic: (project: Id, backend?: string) =>
    answer(
      client.POST("/api/projects/{id}/suggestion-runs/", {
        ...id(project),
        body: backendOf(backend),
      }),
    ),
};

export type AdminApi = typeof adminApi;
