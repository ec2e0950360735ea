// Admin pages: routes under /manage/. The pages live in src/admin/ and are lazy imports, so
// the annotators' bundle does not carry them. `requiresAdmin` makes the router send everyone
// else back to their topics.

import type { RouteRecordRaw } from "vue-router";

const admin = { requiresAdmin: true, wide: true } as const;

export const manageRoutes: RouteRecordRaw[] = [
  {
    path: "/manage",
    component: () => import("../admin/AdminShell.vue"),
    meta: { ...admin },
    children: [
      {
        path: "",
        name: "manage",
        component: () => import("../pages/ManageHomePage.vue"),
        meta: { ...admin, title: "Manage" },
      },
      {
        path: "users",
        name: "manage-users",
        component: () => import("../admin/users/UsersPage.vue"),
        meta: { ...admin, title: "Users" },
      },
      {
        path: "datasets",
        name: "manage-datasets",
        component: () => import("../admin/datasets/DatasetsPage.vue"),
        meta: { ...admin, title: "Datasets" },
      },
      {
        path: "corpora",
        name: "manage-corpora",
        component: () => import("../admin/corpus/CorporaPage.vue"),
        meta: { ...admin, title: "Corpora" },
      },
      {
        path: "candidate-runs/:run(\\d+)",
        name: "candidate-review",
        component: () => import("../admin/corpus/CandidateReviewPage.vue"),
        props: (route) => ({ runId: Number(route.params.run) }),
        meta: { ...admin, title: "Candidate topics" },
      },
      {
        path: "annotations/:annotation(\\d+)/history",
        name: "annotation-history",
        component: () => import("../admin/history/AnnotationHistoryPage.vue"),
        props: (route) => ({ annotationId: Number(route.params.annotation) }),
        meta: { ...admin, title: "Annotation history" },
      },
      {
        path: "projects/new",
        name: "project-new",
        component: () => import("../admin/projects/ProjectCreatePage.vue"),
        meta: { ...admin, title: "New project" },
      },
      {
        path: "projects/import-archive",
        name: "project-import-archive",
        component: () => import("../admin/projects/ArchiveImportPage.vue"),
        meta: { ...admin, title: "Import a project archive" },
      },
      {
        path: "projects/:project(\\d+)",
        component: () => import("../admin/projects/ProjectLayout.vue"),
        props: (route) => ({ projectId: Number(route.params.project) }),
        meta: { ...admin },
        children: [
          {
            path: "",
            name: "project",
            redirect: (to) => ({ name: "project-progress", params: to.params }),
          },
          {
            path: "progress",
            name: "project-progress",
            component: () => import("../admin/progress/ProgressPage.vue"),
            meta: { ...admin, title: "Progress" },
          },
          {
            path: "assignments",
            name: "project-assignments",
            component: () => import("../admin/assign/AssignmentsPage.vue"),
            meta: { ...admin, title: "Assignments" },
          },
          {
            path: "topics",
            name: "project-topics",
            component: () => import("../admin/data/TopicsPage.vue"),
            meta: { ...admin, title: "Topics and import" },
          },
          {
            path: "export",
            name: "project-export",
            component: () => import("../admin/data/ExportPage.vue"),
            meta: { ...admin, title: "Export" },
          },
          {
            path: "agreement",
            name: "project-agreement",
            component: () => import("../admin/agreement/AgreementPage.vue"),
            meta: { ...admin, title: "Agreement" },
          },
          {
            path: "agreement/diagnosis",
            name: "project-diagnosis",
            component: () => import("../admin/agreement/DiagnosisPage.vue"),
            meta: { ...admin, title: "Diagnosis of disagreement" },
          },
          {
            path: "statistics",
            name: "project-statistics",
            component: () => import("../admin/datasets/StatisticsPage.vue"),
            meta: { ...admin, title: "Statistics" },
          },
          {
            path: "suggestions",
            name: "project-suggestions",
            component: () => import("../admin/suggestions/SuggestionsPage.vue"),
            meta: { ...admin, title: "Suggestions" },
          },
          {
            path: "models",
            name: "project-models",
            component: () => import("../admin/models/ModelsPage.vue"),
            meta: { ...admin, title: "Models" },
          },
          {
            path: "onboarding",
            name: "project-onboarding",
            component: () => import("../admin/projects/OnboardingPage.vue"),
            meta: { ...admin, title: "Onboarding" },
          },
          {
            path: "settings",
            name: "project-settings",
            component: () => import("../admin/projects/ProjectSettingsPage.vue"),
            meta: { ...admin, title: "Project settings" },
          },
        ],
      },
    ],
  },
];
