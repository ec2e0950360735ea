// Who is signed in. Created once in main.ts and provided to the app (no module-level state).

import { inject, type InjectionKey, ref } from "vue";
import { api as defaultApi, type Api } from "../api/endpoints";
import { ApiError } from "../api/http";
import type { Me } from "../api/types";

export function createSession(api: Api = defaultApi) {
  const user = ref<Me | null>(null);
  const checked = ref(false);

  async function refresh(): Promise<Me | null> {
    try {
      user.value = await api.me();
    } catch (error) {
      if (!(error instanceof ApiError) || (error.status !== 401 && error.status !== 403)) throw error;
      user.value = null;
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

  return { user, checked, refresh, login, logout };
}

export type Session = ReturnType<typeof createSession>;
export const SESSION_KEY: InjectionKey<Session> = Symbol("session");

export function useSession(): Session {
  const session = inject(SESSION_KEY);
  if (!session) throw new Error("useSession() outside the app");
  return session;
}
