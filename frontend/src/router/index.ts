// The router: annotator pages, admin pages (/manage, see manageRoutes.ts), a 404 page, and
// one guard that sends signed-out users to the sign-in page.

import { createRouter, createWebHistory, type Router, type RouterHistory } from "vue-router";
import type { Session } from "../session/session";
import { annotatorRoutes } from "./annotatorRoutes";
import { manageRoutes } from "./manageRoutes";

declare module "vue-router" {
  interface RouteMeta {
    /** Reachable without signing in. */
    public?: boolean;
    requiresAdmin?: boolean;
    title?: string;
    /** The page uses the whole window width (the workspace). */
    wide?: boolean;
  }
}

export function createAppRouter(
  session: Session,
  history: RouterHistory = createWebHistory(),
): Router {
  const router = createRouter({
    history,
    routes: [
      ...annotatorRoutes,
      ...manageRoutes,
      {
        path: "/:rest(.*)*",
        name: "not-found",
        component: () => import("../pages/NotFoundPage.vue"),
      },
    ],
  });
  router.beforeEach(async (to) => {
    if (!session.checked.value) await session.refresh();
    if (to.meta.public) return true;
    if (!session.user.value)
      return { name: "login", query: to.fullPath === "/" ? {} : { next: to.fullPath } };
    if (to.meta.requiresAdmin && !session.user.value.is_admin) return { name: "topics" };
    return true;
  });
  router.afterEach((to) => {
    document.title = to.meta.title ? `${to.meta.title} · corefapp` : "corefapp";
  });
  return router;
}
