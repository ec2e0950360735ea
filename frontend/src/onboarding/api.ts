// The onboarding endpoints (onboarding/api/urls.py): an annotator's practice, admins'
// practice topics, qualification rule and per-annotator state.

import { answer, client, multipart } from "../api/http";
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

const id = (value: Id) => ({ params: { path: { id: value } } });

export const onboardingApi = {
  myPractice: (assignment: Id) =>
    answer(client.GET("/api/onboarding/assignments/{id}/", id(assignment))),
  startGuided: (assignment: Id) =>
    answer(client.POST("/api/onboarding/assignments/{id}/start/", id(assignment))),
  reset: (assignment: Id) =>
    answer(client.POST("/api/onboarding/assignments/{id}/reset/", id(assignment))),
  project: (project: Id) => answer(client.GET("/api/onboarding/projects/{id}/", id(project))),
  setRule: (
    project: Id,
    practiceTopics: Id[],
    thresholds: Record<string, number>,
    attemptsAllowed: number | null,
  ) =>
    answer(
      client.PUT("/api/onboarding/projects/{id}/rule/", {
        ...id(project),
        body: { practice_topics: practiceTopics, thresholds, attempts_allowed: attemptsAllowed },
      }),
    ),
  qualify: (project: Id, user: Id, qualified: boolean, note: string) =>
    answer(
      client.POST("/api/onboarding/projects/{id}/users/{user}/", {
        params: { path: { id: project, user } },
        body: { qualified, note },
      }),
    ),
  markPractice: (topic: Id, mode: PracticeMode) =>
    answer(client.PUT("/api/onboarding/topics/{id}/practice/", { ...id(topic), body: { mode } })),
  unmarkPractice: (topic: Id) =>
    answer(client.DELETE("/api/onboarding/topics/{id}/practice/", id(topic))),
  users: () => answer(client.GET("/api/onboarding/users/")),
  importPractice: (project: Id, file: File) =>
    answer(
      client.POST("/api/onboarding/projects/{id}/import/", {
        ...id(project),
        body: multipart<Schemas["PracticeImportRequestRequest"]>({ file }),
      }),
    ),
};
