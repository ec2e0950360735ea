// The page asks who is signed in without a failing request.
import { afterEach, describe, expect, it, vi } from "vitest";
import { RetryLater } from "../../src/api/http";
import {
  createSession,
  retryText,
  SIGN_IN_ATTEMPTS,
  type SessionApi,
  type SignInRetry,
} from "../../src/session/session";

function fakeApi(answer: Awaited<ReturnType<SessionApi["session"]>>) {
  return {
    session: vi.fn(() => Promise.resolve(answer)),
    csrf: vi.fn(() => Promise.resolve({})),
    login: vi.fn((username: string, _password: string) =>
      Promise.resolve({ id: 1, username, is_admin: false }),
    ),
    logout: vi.fn(() => Promise.resolve()),
  } satisfies SessionApi;
}

describe("the session", () => {
  it("is signed out when the server says nobody is", async () => {
    const session = createSession(
      fakeApi({ authenticated: false, user: null, single_sign_on: null }),
    );
    expect(await session.refresh()).toBeNull();
    expect(session.checked.value).toBe(true);
  });

  it("knows the user the server names", async () => {
    const me = { id: 4, username: "ann", is_admin: true };
    const session = createSession(fakeApi({ authenticated: true, user: me, single_sign_on: null }));
    expect(await session.refresh()).toEqual(me);
  });

  it("knows the single sign-on provider the server offers, and that none is offered", async () => {
    const provider = { name: "University", url: "/oidc/authenticate/" };
    const offered = createSession(
      fakeApi({ authenticated: false, user: null, single_sign_on: provider }),
    );
    await offered.refresh();
    expect(offered.singleSignOn.value).toEqual(provider);
    const none = createSession(fakeApi({ authenticated: false, user: null, single_sign_on: null }));
    await none.refresh();
    expect(none.singleSignOn.value).toBeNull();
  });

  it("asks for the CSRF cookie before signing in", async () => {
    const api = fakeApi({ authenticated: false, user: null, single_sign_on: null });
    const session = createSession(api);
    await session.login("ann", "pw");
    expect(api.csrf).toHaveBeenCalledBefore(api.login);
    expect(session.user.value?.username).toBe("ann");
  });
});

describe("a sign-in the server asks to send again later (503 with Retry-After)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const busy = () =>
    new RetryLater(5, {
      error: "sign_in_busy",
      message: "Too many sign-ins at once; try again in a few seconds.",
    });

  it("is sent again after the wait the server names, and says so before each wait", async () => {
    vi.useFakeTimers();
    const api = fakeApi({ authenticated: false, user: null, single_sign_on: null });
    const login = api.login;
    login
      .mockImplementationOnce(() => Promise.reject(busy()))
      .mockImplementationOnce(() => Promise.reject(busy()));
    const heard: SignInRetry[] = [];
    const session = createSession(api);

    const signedIn = session.login("ann", "pw", (retry) => heard.push(retry));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(login).toHaveBeenCalledTimes(1); // waits the whole Retry-After
    await vi.advanceTimersByTimeAsync(1);
    expect(login).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(5_000);

    expect((await signedIn).username).toBe("ann");
    expect(login).toHaveBeenCalledTimes(3);
    expect(heard.map((retry) => [retry.attempt, retry.seconds])).toEqual([
      [2, 5],
      [3, 5],
    ]);
    expect(retryText(heard[0]!)).toBe(
      "Many people are signing in at once. Trying again in 5 s (try 2 of 6)…",
    );
  });

  it("gives up after SIGN_IN_ATTEMPTS tries with the server's refusal", async () => {
    vi.useFakeTimers();
    const api = fakeApi({ authenticated: false, user: null, single_sign_on: null });
    const login = api.login;
    login.mockImplementation(() => Promise.reject(busy()));
    const session = createSession(api);

    const failed = session.login("ann", "pw").catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(5_000 * SIGN_IN_ATTEMPTS);

    expect(await failed).toBeInstanceOf(RetryLater);
    expect(login).toHaveBeenCalledTimes(SIGN_IN_ATTEMPTS);
    expect(session.user.value).toBeNull();
  });

  it("is not sent again after a refusal of the password", async () => {
    const api = fakeApi({ authenticated: false, user: null, single_sign_on: null });
    const login = api.login;
    login.mockImplementation(() => Promise.reject(new Error("Wrong username or password.")));

    await expect(createSession(api).login("ann", "pw")).rejects.toThrow(
      "Wrong username or password.",
    );
    expect(login).toHaveBeenCalledTimes(1);
  });
});
