// The annotator's pages: sign in, my topics, the workspace.

import type { RouteRecordRaw } from "vue-router";
import LoginPage from "../pages/LoginPage.vue";
import MyTopicsPage from "../pages/MyTopicsPage.vue";
import WorkspacePage from "../pages/WorkspacePage.vue";

export const annotatorRoutes: RouteRecordRaw[] = [
  { path: "/login", name: "login", component: LoginPage, meta: { public: true, title: "Sign in" } },
  { path: "/", name: "topics", component: MyTopicsPage, meta: { title: "My topics" } },
  {
    path: "/annotate/:assignment(\\d+)",
    name: "annotate",
    component: WorkspacePage,
    meta: { title: "Annotate", wide: true },
  },
];
