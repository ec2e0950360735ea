// Who is signed in. Created once in main.ts and provided to the app (no module-level state).
//
// The first question of every page load is GET /api/session/, which answers 200 whether or
// not anyone is signed in: asking /api/me/ signed out answers 403, which the browser logs as
// a failed request on every visit to the sign-in page.

import { inject, type InjectionKey, ref } from "vue";
import { api as defaultApi } from "../api/endpoints";
import { answer, client, RetryLater } from "../api/http";
import type { components } from "../api/schema";
import type { Me } from "../api/types";

export type SessionPayload = components["schemas"]["SessionPayload"];
export type SingleSignOn = components["schemas"]["SingleSignOn"];

/** A sign-in the server asked to send again later (a 503 with Retry-After: too many sign-ins
 * at once), about to be: the page shows it, so a wait is not taken for a hang. */
export interface SignInRetry {
  seconds: number;
  attempt: number; // the attempt about to be made, 2 for the first retry
  attempts: number; // the most that are made
  code: string;
  message: string;
}

// A flood of sign-ins empties the server's queue of 32 in a few seconds (one PBKDF2 check at
// a time); six tries five seconds apart outlast any flood we measured, and then
// the page says so rather than waiting on.
export const SIGN_IN_ATTEMPTS = 6;
const LONGEST_WAIT_SECONDS = 30;

/** What the sign-in page shows while it waits to send a sign-in again. */
export function retryText(retry: SignInRetry): string {
  const why = retry.code === "sign_in_busy" ? "Many people are signing in at once." : retry.message;
  return `${why} Trying again in ${retry.seconds} s (try ${retry.attempt} of ${retry.attempts})…`;
}

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

  /** Signs in; a sign-in the server asks to send again later is sent again after the wait it
   * names (`onRetry` hears of each), at most SIGN_IN_ATTEMPTS times in all. */
  async function login(username: string, password: string, onRetry?: (retry: SignInRetry) => void): Promise<Me> {
    await api.csrf(); // sets the CSRF cookie that the POST below must echo
    user.value = await signedIn(username, password, onRetry);
    checked.value = true;
    return user.value;
  }

  async function signedIn(username: string, password: string, onRetry?: (retry: SignInRetry) => void): Promise<Me> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await api.login(username, password);
      } catch (error) {
        if (!(error instanceof RetryLater) || attempt >= SIGN_IN_ATTEMPTS) throw error;
        const seconds = Math.min(error.seconds, LONGEST_WAIT_SECONDS);
        onRetry?.({ seconds, attempt: attempt + 1, attempts: SIGN_IN_ATTEMPTS, code: error.code, message: error.message });
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      }
    }
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
