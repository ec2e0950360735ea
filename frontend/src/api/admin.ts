// One function per admin endpoint (annotation/api/urls.py "admins", modelserve/urls.py).

import type {
  AcceptanceRow,
  TrainingPayload,
  AgreementReport,
  AssignmentReassigned,
  AssignmentReopened,
  AssignmentsCreated,
  AssignRequest,
  BulkAction,
  BulkDone,
  ImportJob,
  ImportResult,
  ProgressPayload,
  Project,
  ProjectInput,
  ProjectRow,
  ProjectRunsAnswer,
  SuggestionBackends,
  SuggestionSettings,
  TopicRow,
  UserRow,
} from "./adminTypes";
import { ApiError, NetworkError, readCookie, request } from "./http";
import type { ErrorBody, Id } from "./types";

const query = (params: Record<string, string | undefined>): string => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : "";
};

export const exportUrl = (project: Id, format: string, source: string): string =>
  `/api/projects/${project}/export/${query({ format, source })}`;

export const agreementCsvUrl = (project: Id): string => `/api/projects/${project}/agreement/?format=csv`;

/** A project as the core sends it: its suggestion settings belong to the suggestions app
 * (modelserve), which has its own endpoint; the admin pages show both together. */
const withSettings = (row: Project, settings: SuggestionSettings | undefined): ProjectRow => ({
  ...row,
  suggestion_backend: settings?.backend ?? "",
  suggestion_params: settings?.params ?? {},
});

const putSettings = (project: Id, backend?: string, params?: Record<string, unknown>) =>
  request<SuggestionSettings>(`/api/projects/${project}/suggestion-settings/`, {
    method: "PUT",
    body: { ...(backend ? { backend } : {}), ...(params === undefined ? {} : { params }) },
  });

async function errorOf(response: Response): Promise<ApiError> {
  let body: ErrorBody = { error: `http_${response.status}`, message: `The server answered ${response.status}.` };
  try {
    const data: unknown = await response.json();
    if (data && typeof data === "object" && "error" in data) body = data as ErrorBody;
  } catch {
    // not JSON: keep the generic message
  }
  return new ApiError(response.status, body);
}

/** A multipart POST (the JSON `request` cannot carry a file). */
async function upload<T>(path: string, form: FormData): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: "POST",
      body: form,
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": readCookie("csrftoken") ?? "" },
    });
  } catch (error) {
    throw new NetworkError(error instanceof Error ? `The server cannot be reached (${error.message}).` : undefined);
  }
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as T;
}

/** A file download: the body and the name the server gave it. */
async function download(path: string): Promise<{ blob: Blob; filename: string }> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: "same-origin" });
  } catch (error) {
    throw new NetworkError(error instanceof Error ? `The server cannot be reached (${error.message}).` : undefined);
  }
  if (!response.ok) throw await errorOf(response);
  const disposition = response.headers.get("Content-Disposition") ?? "";
  const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? "export";
  return { blob: await response.blob(), filename };
}

export const adminApi = {
  projects: async (): Promise<ProjectRow[]> => {
    const [rows, settings] = await Promise.all([
      request<Project[]>("/api/projects/"),
      request<SuggestionSettings[]>("/api/suggestion-settings/"),
    ]);
    const byProject = new Map(settings.map((s) => [s.project, s]));
    return rows.map((row) => withSettings(row, byProject.get(row.id)));
  },
  project: async (id: Id): Promise<ProjectRow> => {
    const [row, settings] = await Promise.all([
      request<Project>(`/api/projects/${id}/`),
      request<SuggestionSettings>(`/api/projects/${id}/suggestion-settings/`),
    ]);
    return withSettings(row, settings);
  },
  createProject: async (input: ProjectInput): Promise<ProjectRow> => {
    const { suggestion_backend, suggestion_params, ...fields } = input;
    const row = await request<Project>("/api/projects/", { method: "POST", body: fields });
    return withSettings(row, await putSettings(row.id, suggestion_backend, suggestion_params));
  },
  updateProject: async (id: Id, input: Partial<ProjectInput>): Promise<ProjectRow> => {
    const { suggestion_backend, suggestion_params, ...fields } = input;
    const row = await request<Project>(`/api/projects/${id}/`, { method: "PATCH", body: fields });
    return withSettings(row, await putSettings(id, suggestion_backend, suggestion_params));
  },
  deleteProject: (id: Id, confirm: boolean) =>
    request<void>(`/api/projects/${id}/${confirm ? "?confirm=true" : ""}`, { method: "DELETE" }),
  suggestionBackends: () => request<SuggestionBackends>("/api/suggestion-backends/"),
  topics: (project: Id) => request<TopicRow[]>(`/api/projects/${project}/topics/`),
  progress: (project: Id) => request<ProgressPayload>(`/api/projects/${project}/progress/`),
  importTopics: (project: Id, file: File, format: string, skipInvalid: boolean) => {
    const form = new FormData();
    form.append("file", file);
    form.append("format", format);
    form.append("skip_invalid", skipInvalid ? "true" : "false");
    return upload<ImportResult | ImportJob>(`/api/projects/${project}/imports/`, form);
  },
  importJob: (job: Id) => request<ImportJob>(`/api/import-jobs/${job}/`),
  exportFile: (project: Id, format: string, source: string) => download(exportUrl(project, format, source)),
  agreement: (project: Id) => request<AgreementReport>(`/api/projects/${project}/agreement/`),
  users: () => request<UserRow[]>("/api/users/"),
  createUser: (username: string, password: string, isAdmin: boolean) =>
    request<UserRow>("/api/users/", { method: "POST", body: { username, password, is_admin: isAdmin } }),
  updateUser: (id: Id, change: { password?: string; is_admin?: boolean; is_active?: boolean }) =>
    request<UserRow>(`/api/users/${id}/`, { method: "PATCH", body: change }),
  assign: (body: AssignRequest) => request<AssignmentsCreated>("/api/assignments/", { method: "POST", body }),
  reassign: (assignment: Id, user: Id, discardWork: boolean) =>
    request<AssignmentReassigned>(`/api/assignments/${assignment}/reassign/`, {
      method: "POST",
      body: { user, discard_work: discardWork },
    }),
  reopen: (assignment: Id) =>
    request<AssignmentReopened>(`/api/assignments/${assignment}/reopen/`, { method: "POST" }),
  deleteAssignment: (assignment: Id, discardWork: boolean) =>
    request<void>(`/api/assignments/${assignment}/${discardWork ? "?discard_work=true" : ""}`, { method: "DELETE" }),
  bulk: (action: BulkAction, assignments: Id[], discardWork = false) =>
    request<BulkDone>("/api/assignments/bulk/", {
      method: "POST",
      body: { action, assignments, discard_work: discardWork },
    }),
  acceptance: (project: Id) => request<AcceptanceRow[]>(`/api/projects/${project}/suggestion-acceptance/`),
  modelTrainings: () => request<TrainingPayload[]>("/api/model-trainings/"),
  suggestEveryTopic: (project: Id, backend?: string) =>
    request<ProjectRunsAnswer>(`/api/projects/${project}/suggestion-runs/`, {
      method: "POST",
      body: backend ? { backend } : {},
    }),
};

export type AdminApi = typeof adminApi;
