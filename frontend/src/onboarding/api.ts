// The onboarding endpoints (onboarding/api/urls.py): an annotator's practice, admins'
// practice topics, qualification rule and per-annotator state.

import { ApiError, readCookie, request } from "../api/http";
import type { components } from "../api/schema";
import type { Id } from "../api/types";

type Schemas = components["schemas"];
export type MyPractice = Schemas["MyPractice"];
export type PracticeAttempt = Schemas["PracticeAttemptRow"];
export type PracticeDiff = Schemas["PracticeDiff"];
export type TourStep = Schemas["PracticeTourStep"];
export type ProjectOnboarding = Schemas["ProjectOnboarding"];
export type AnnotatorQualification = Schemas["AnnotatorQualification"];
export type UserQualification = Schemas["UserQualification"];
export type PracticeRow = Schemas["PracticeRow"];
export type PracticeMode = PracticeRow["mode"];

export const onboardingApi = {
  myPractice: (assignment: Id) => request<MyPractice>(`/api/onboarding/assignments/${assignment}/`),
  startGuided: (assignment: Id) =>
    request<Schemas["GuidedStarted"]>(`/api/onboarding/assignments/${assignment}/start/`, { method: "POST" }),
  reset: (assignment: Id) =>
    request<Schemas["PracticeReset"]>(`/api/onboarding/assignments/${assignment}/reset/`, { method: "POST" }),
  project: (project: Id) => request<ProjectOnboarding>(`/api/onboarding/projects/${project}/`),
  setRule: (project: Id, practiceTopics: Id[], thresholds: Record<string, number>) =>
    request<ProjectOnboarding>(`/api/onboarding/projects/${project}/rule/`, {
      method: "PUT",
      body: { practice_topics: practiceTopics, thresholds },
    }),
  qualify: (project: Id, user: Id, qualified: boolean, note: string) =>
    request<ProjectOnboarding>(`/api/onboarding/projects/${project}/users/${user}/`, {
      method: "POST",
      body: { qualified, note },
    }),
  markPractice: (topic: Id, mode: PracticeMode) =>
    request<PracticeRow>(`/api/onboarding/topics/${topic}/practice/`, { method: "PUT", body: { mode } }),
  unmarkPractice: (topic: Id) => request<void>(`/api/onboarding/topics/${topic}/practice/`, { method: "DELETE" }),
  users: () => request<UserQualification[]>("/api/onboarding/users/"),
  importPractice: async (project: Id, file: File): Promise<PracticeRow[]> => {
    const form = new FormData();
    form.append("file", file);
    const response = await fetch(`/api/onboarding/projects/${project}/import/`, {
      method: "POST",
      body: form,
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": readCookie("csrftoken") ?? "" },
    });
    const body: unknown = await response.json().catch(() => ({ error: "error", message: response.statusText }));
    if (!response.ok) throw new ApiError(response.status, body as ConstructorParameters<typeof ApiError>[1]);
    return body as PracticeRow[];
  },
};
