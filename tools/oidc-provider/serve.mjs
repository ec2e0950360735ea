// A real OpenID Connect provider for the single sign-on tests (tests/e2e/test_oidc_sign_in.py):
// npm's oidc-provider (the certified Node implementation) with one static client and two test
// users. Never used by the app at run time.
//
//   node tools/oidc-provider/serve.mjs   (configured by the environment below)
//
// OIDC_TEST_PORT           the port on 127.0.0.1; the issuer is http://127.0.0.1:PORT
// OIDC_TEST_CLIENT_ID      the client's id and secret (client_secret_post, like
// OIDC_TEST_CLIENT_SECRET  mozilla-django-oidc sends them)
// OIDC_TEST_REDIRECT_URI   the app's callback, e.g. http://127.0.0.1:8123/oidc/callback/
//
// The sign-in and consent pages are the library's development interactions: any password is
// accepted for a known login. "alice" is in the group corefapp-admins, "bob" in no group.
// Prints "listening on <issuer>" once it serves.

import Provider from "oidc-provider";

const port = Number(process.env.OIDC_TEST_PORT);
const issuer = `http://127.0.0.1:${port}`;

const USERS = {
  alice: {
    email: "alice@university.example",
    email_verified: true,
    preferred_username: "alice",
    name: "Alice Admin",
    groups: ["corefapp-admins", "staff"],
  },
  bob: {
    email: "bob@university.example",
    email_verified: true,
    preferred_username: "bob",
    name: "Bob Nogroup",
    groups: [],
  },
};

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: process.env.OIDC_TEST_CLIENT_ID,
      client_secret: process.env.OIDC_TEST_CLIENT_SECRET,
      redirect_uris: [process.env.OIDC_TEST_REDIRECT_URI],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post",
    },
  ],
  // A groups scope, as most providers (Keycloak, Authentik, Dex) ask for one.
  scopes: ["openid", "email", "profile", "groups"],
  claims: {
    openid: ["sub"],
    email: ["email", "email_verified"],
    profile: ["name", "preferred_username"],
    groups: ["groups"],
  },
  async findAccount(ctx, id) {
    const user = USERS[id];
    if (!user) return undefined;
    return { accountId: id, claims: async () => ({ sub: id, ...user }) };
  },
  features: { devInteractions: { enabled: true } },
  cookies: { keys: ["corefapp-test-oidc-provider"] },
});
provider.on("server_error", (ctx, error) => console.error("server_error", error));

provider.listen(port, "127.0.0.1", () => {
  console.log(`listening on ${issuer}`);
});
