// Admin pages: routes under /manage/. The admin pages live in src/admin/; add their routes to
// this list (lazy imports keep them out of the annotators' bundle). `requiresAdmin` makes the
// router send everyone else back to their topics.

import type { RouteRecordRaw } from "vue-router";

export const manageRoutes: RouteRecordRaw[] = [
  {
    path: "/manage",
    name: "manage",
    component: () => import("../pages/ManageHomePage.vue"),
    meta: { requiresAdmin: true, title: "Manage" },
  },
];
