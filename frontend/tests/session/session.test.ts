// The page asks who is signed in without a failing request.
import { describe, expect, it, vi } from "vitest";
import { createSession, type SessionApi } from "../../src/session/session";

function fakeApi(answer: Awaited<ReturnType<SessionApi["session"]>>): SessionApi {
  return {
    session: vi.fn(() => Promise.resolve(answer)),
    csrf: vi.fn(() => Promise.resolve({})),
    login: vi.fn((username: string) => Promise.resolve({ id: 1, username, is_admin: false })),
    logout: vi.fn(() => Promise.resolve()),
  };
}

describe("the session", () => {
  it("is signed out when the server says nobody is", async () => {
    const session = createSession(fakeApi({ authenticated: false, user: null, single_sign_on: null }));
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
    const offered = createSession(fakeApi({ authenticated: false, user: null, single_sign_on: provider }));
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
    expect(api.csrf).toHaveBeenCalledBefore(api.login as ReturnType<typeof vi.fn>);
    expect(session.user.value?.username).toBe("ann");
  });
});
