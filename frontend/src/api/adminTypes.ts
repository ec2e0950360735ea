// The JSON of the admin endpoints, by the names the admin pages use: aliases of the types
// generated from the server's OpenAPI schema (see types.ts), plus what the pages compose.

import type { components, operations } from "./schema";

type Schemas = components["schemas"];

/** A project as the core sends it (its suggestion settings are the suggestions app's). */
export type Project = Schemas["Project"];
/** A project's suggestion settings (modelserve). */
export type SuggestionSettings = Schemas["SuggestionSettings"];
/** A training profile of in-app learning (modelserve/training/profiles.py). */
export type LearnProfile = Schemas["LearnProfileEnum"];

/** What the admin pages show of a project: the core's row with its suggestion settings
 * (composed by admin.ts from two endpoints, so not one payload of the schema). */
export type ProjectRow = Project & {
  suggestion_backend: SuggestionSettings["backend"];
  suggestion_params: SuggestionSettings["params"];
};

/** What the project form sends: the project (POST creates, PATCH changes) and its
 * suggestion settings (PUT), every field filled in by the form but a validation project's
 * reasons (a new project names what its clusters are, and gets that kind's reasons from the
 * server; they are edited afterwards). */
export type ProjectInput = Required<
  Omit<Schemas["ProjectRequest"], "validation_reasons" | "validation_reasons_for">
> &
  Pick<Schemas["ProjectRequest"], "validation_reasons" | "validation_reasons_for"> & {
    suggestion_backend: SuggestionSettings["backend"];
    suggestion_params: SuggestionSettings["params"];
  };

export type SuggestionBackends = Schemas["SuggestionBackends"];
export type ValidationReasonInput = Schemas["ValidationReasonInputRequest"];
export type TopicRow = Schemas["TopicRow"];
export type UserRow = Schemas["UserRow"];
export type AssignmentStatus = Schemas["AssignmentStatus"];
export type ProgressCell = Schemas["ProgressCell"];
export type ProgressPayload = Schemas["ProgressPayload"];
export type TimeReport = Schemas["TimeReport"];
export type AnnotatorTime = Schemas["AnnotatorTime"];

/** ws/projects/<id>/: after every committed operation or status change in the project (the
 * schema describes HTTP only). */
export interface ProgressMessage {
  type: "progress";
  assignment?: number;
  annotation?: number;
  version?: number;
  status?: AssignmentStatus;
  operation?: string;
  /** Bulk actions: "deleted" | "reopened", with the assignments concerned. */
  action?: string;
  assignments?: number[];
}

/** POST /api/assignments/ */
export type AssignRequest = Schemas["AssignRequestRequest"];
export type AssignmentsCreated = Schemas["AssignmentsCreated"];
export type AssignmentReassigned = Schemas["AssignmentReassigned"];
export type AssignmentReopened = Schemas["AssignmentReopened"];
export type BulkDone = Schemas["BulkDone"];
export type BulkAction = Schemas["BulkAction"];

export type ImportResult = Schemas["ImportSummary"];
export type ImportRequest = Schemas["ImportRequestRequest"];
export type ArchiveImportRequest = Schemas["ArchiveImportRequestRequest"];
export type ArchiveImported = Schemas["ArchiveImported"];
export type ImportFormat = ImportRequest["format"];
export type ExportFormat = NonNullable<
  NonNullable<operations["projects_export_retrieve"]["parameters"]["query"]>["format"]
>;
/** A raw import leaves the file's annotation out: "" keeps it. */
export type ImportRaw = NonNullable<ImportRequest["raw"]>;
/** A large upload, imported by the worker: poll it (annotation/services/imports/jobs.py). */
export type ImportJob = Schemas["ImportJobPayload"];

export type TopicMetricScores = Schemas["TopicMetricScores"];
export type OverallMetricScores = Schemas["OverallMetricScores"];
export type Score = TopicMetricScores["avg"];
/** GET /api/projects/<id>/agreement/ */
export type AgreementReport = Schemas["AgreementReport"];
/** GET /api/projects/<id>/agreement/diagnosis/?topic= */
export type Diagnosis = Schemas["DiagnosisPayload"];
export type DiagnosisCluster = Schemas["DiagnosisCluster"];

export type AcceptanceRow = Schemas["AcceptanceRow"];
/** GET /api/model-trainings/: a model trained in the model worker after start-up. */
export type TrainingPayload = Schemas["TrainingPayload"];
export type ModelVersions = Schemas["ModelVersions"];
export type ModelVersionPayload = Schemas["ModelVersionPayload"];
export type ProjectRunsAnswer = Schemas["ProjectRunsAnswer"];
/** The admin Models page: a backend scored on the project's gold (modelserve/evaluation_*). */
export type EvaluationChoices = Schemas["EvaluationChoices"];
/** One model a backend's evaluation can score: a learnt version (`version`) or a trained folder. */
export type ModelChoice = Schemas["ModelChoice"];
export type EvaluationRow = Schemas["EvaluationRow"];
export type EvaluationDetail = Schemas["EvaluationDetail"];
export type EvaluationResult = Schemas["EvaluationResult"];
export type EvaluationGold = Schemas["EvaluationGold"];
