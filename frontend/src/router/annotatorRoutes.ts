// The annotator's pages: sign in, my topics, the workspace, and the same workspace read-only
// to review someone's annotation (the server decides who may: admins).

import type { RouteRecordRaw } from "vue-router";
import LoginPage from "../pages/LoginPage.vue";
import MyTopicsPage from "../pages/MyTopicsPage.vue";
import WorkspacePage from "../pages/WorkspacePage.vue";

// Loaded when first visited: most sessions never open them (docs: frontend/README.md, size).
const ReviewPage = () => import("../pages/ReviewPage.vue");
const ValidationPage = () => import("../validation/ValidationPage.vue");

export const annotatorRoutes: RouteRecordRaw[] = [
  { path: "/login", name: "login", component: LoginPage, meta: { public: true, title: "Sign in" } },
  { path: "/", name: "topics", component: MyTopicsPage, meta: { title: "My topics" } },
  {
    path: "/annotate/:assignment(\\d+)",
    name: "annotate",
    component: WorkspacePage,
    meta: { title: "Annotate", wide: true },
  },
  {
    path: "/review/annotations/:annotation(\\d+)",
    name: "review",
    component: ReviewPage,
    meta: { title: "Review", wide: true },
  },
  {
    path: "/validate/annotations/:annotation(\\d+)",
    name: "validate",
    component: ValidationPage,
    meta: { title: "Validate", wide: true },
  },
];
