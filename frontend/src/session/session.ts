// Who is signed in. Created once in main.ts and provided to the app (no module-level state).
//
// The first question of every page load is GET /api/session/, which answers 200 whether or
// not anyone is signed in: asking /api/me/ signed out answers 403, which the browser logs as
// a failed request on every visit to the sign-in page.

import { inject, type InjectionKey, ref } from "vue";
import { api as defaultApi } from "../api/endpoints";
import { answer, client } from "../api/http";
import type { components } from "../api/schema";
import type { Me } from "../api/types";

export type SessionPayload = components["schemas"]["SessionPayload"];
export type SingleSignOn = components["schemas"]["SingleSignOn"];

/** What the session needs of the server. */
export interface SessionApi {
  session(): Promise<SessionPayload>;
  csrf(): Promise<unknown>;
  login(username: string, password: string): Promise<Me>;
  logout(): Promise<void>;
}

export const sessionApi: SessionApi = {
  session: () => answer(client.GET("/api/session/")),
  csrf: () => defaultApi.csrf(),
  login: (username, password) => defaultApi.login(username, password),
  logout: () => defaultApi.logout(),
};

export function createSession(api: SessionApi = sessionApi) {
  const user = ref<Me | null>(null);
  const checked = ref(false);
  // The OpenID Connect provider the sign-in page offers, if the server has one.
  const singleSignOn = ref<SingleSignOn | null>(null);

  async function refresh(): Promise<Me | null> {
    try {
      const answer = await api.session();
      user.value = answer.authenticated ? answer.user : null;
      singleSignOn.value = answer.single_sign_on ?? null;
    } finally {
      checked.value = true;
    }
    return user.value;
  }

  async function login(username: string, password: string): Promise<Me> {
    await api.csrf(); // sets the CSRF cookie that the POST below must echo
    user.value = await api.login(username, password);
    checked.value = true;
    return user.value;
  }

  async function logout(): Promise<void> {
    try {
      await api.logout();
    } finally {
      user.value = null;
    }
  }

  return { user, checked, singleSignOn, refresh, login, logout };
}

export type Session = ReturnType<typeof createSession>;
export const SESSION_KEY: InjectionKey<Session> = Symbol("session");

export function useSession(): Session {
  const session = inject(SESSION_KEY);
  if (!session) throw new Error("useSession() outside the app");
  return session;
}
