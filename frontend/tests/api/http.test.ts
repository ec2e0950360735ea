// The typed client keeps the request layer's behaviours: the CSRF header on writes, JSON
// bodies, refusals as ApiError with the server's body (a 409 with current_version for the
// operation queue), no answer or a gateway's as NetworkError, an empty 204. The fetch is a
// stand-in for the network; everything above it is the real client.
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import { api } from "../../src/api/endpoints";
import {
  answer,
  ApiError,
  createApiClient,
  multipart,
  NetworkError,
  RetryLater,
  retryAfterSeconds,
} from "../../src/api/http";
import type { components } from "../../src/api/schema";

type Schemas = components["schemas"];

const client = createApiClient("http://app.test");
let sent: Request[] = [];
let reply: () => Response | Promise<Response>;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

beforeEach(() => {
  sent = [];
  vi.stubGlobal("document", { cookie: "other=1; csrftoken=tok%3Den" });
  vi.stubGlobal("fetch", async (request: Request) => {
    sent.push(request);
    return reply();
  });
});
afterEach(() => vi.unstubAllGlobals());

describe("the typed client", () => {
  it("sends a write as JSON with the CSRF token, and answers the path's data", async () => {
    reply = () => json(200, { id: 1, username: "ann", is_admin: false });

    const me = await answer(
      client.POST("/api/auth/login/", { body: { username: "ann", password: "pw" } }),
    );

    expect(me.username).toBe("ann");
    const request = sent[0]!;
    expect([request.method, new URL(request.url).pathname]).toEqual(["POST", "/api/auth/login/"]);
    expect(request.headers.get("X-CSRFToken")).toBe("tok=en");
    expect(request.headers.get("Content-Type")).toBe("application/json");
    expect(await request.json()).toEqual({ username: "ann", password: "pw" });
  });

  it("sends no CSRF header on a read, and fills in the path's parameters", async () => {
    reply = () => json(200, []);

    await answer(client.GET("/api/projects/{id}/topics/", { params: { path: { id: 7 } } }));

    expect(new URL(sent[0]!.url).pathname).toBe("/api/projects/7/topics/");
    expect(sent[0]!.headers.get("X-CSRFToken")).toBeNull();
    expect(sent[0]!.headers.get("Accept")).toBe("application/json");
  });

  it("turns a 409 into an ApiError carrying the current version", async () => {
    reply = () =>
      json(409, {
        error: "version_conflict",
        message: "Changed.",
        expected_version: 1,
        current_version: 3,
      });

    const failure = await answer(
      client.POST("/api/annotations/{id}/undo/", {
        params: { path: { id: 2 } },
        body: { expected_version: 1 },
      }),
    ).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(409);
    expect((failure as ApiError).code).toBe("version_conflict");
    expect((failure as ApiError).body.current_version).toBe(3);
  });

  it("gives a refusal that is not JSON a generic body", async () => {
    reply = () => new Response("<h1>Forbidden</h1>", { status: 403 });

    const failure = await answer(client.GET("/api/me/")).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).body).toEqual({
      error: "http_403",
      message: "The server answered 403.",
    });
  });

  it("reads no answer, and a gateway's, as a NetworkError (the queue retries them)", async () => {
    reply = () => Promise.reject(new TypeError("Failed to fetch"));
    await expect(answer(client.GET("/api/me/"))).rejects.toBeInstanceOf(NetworkError);

    reply = () => new Response("Bad gateway", { status: 502 });
    await expect(answer(client.GET("/api/me/"))).rejects.toThrow("The server answered 502.");
  });

  it("reads our 503 with Retry-After as RetryLater, still a NetworkError, with the wait and the body", async () => {
    const body = {
      error: "sign_in_busy",
      message: "Too many sign-ins at once; try again in a few seconds.",
    };
    reply = () =>
      new Response(JSON.stringify(body), {
        status: 503,
        headers: { "Content-Type": "application/json", "Retry-After": "5" },
      });

    const failure = await answer(
      client.POST("/api/auth/login/", { body: { username: "a", password: "b" } }),
    ).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(RetryLater);
    expect(failure).toBeInstanceOf(NetworkError);
    expect([(failure as RetryLater).seconds, (failure as RetryLater).code]).toEqual([
      5,
      "sign_in_busy",
    ]);

    reply = () => new Response("busy", { status: 503 }); // a proxy's, with no Retry-After
    const plain = await answer(client.GET("/api/me/")).catch((error: unknown) => error);
    expect(plain).toBeInstanceOf(NetworkError);
    expect(plain).not.toBeInstanceOf(RetryLater);
  });

  it("reads Retry-After as seconds or as a date", () => {
    const now = Date.parse("2026-12-01T10:00:00Z");
    expect(retryAfterSeconds("5", now)).toBe(5);
    expect(retryAfterSeconds("Tue, 01 Dec 2026 10:00:07 GMT", now)).toBe(7);
    expect(retryAfterSeconds(null, now)).toBeNull();
    expect(retryAfterSeconds("soon", now)).toBeNull();
  });

  it("reads a restore's 503 as a NetworkError that says the server is restoring", async () => {
    reply = () => json(503, { error: "restoring", message: "A backup is being restored." });
    const restoring = await answer(client.POST("/api/auth/logout/")).catch(
      (error: unknown) => error,
    );
    expect(restoring).toBeInstanceOf(NetworkError);
    expect((restoring as NetworkError).reason).toBe("restoring");

    // With Retry-After (as the server sends it) still a restore, and a wait to honour.
    reply = () =>
      new Response(JSON.stringify({ error: "restoring", message: "A backup is being restored." }), {
        status: 503,
        headers: { "Content-Type": "application/json", "Retry-After": "3" },
      });
    const later = await answer(client.POST("/api/auth/logout/")).catch((error: unknown) => error);
    expect(later).toBeInstanceOf(RetryLater);
    expect([(later as RetryLater).reason, (later as RetryLater).seconds]).toEqual(["restoring", 3]);

    reply = () =>
      json(503, { error: "database_unavailable", message: "The database is unavailable." });
    const outage = await answer(client.POST("/api/auth/logout/")).catch((error: unknown) => error);
    expect(outage).toBeInstanceOf(NetworkError);
    expect((outage as NetworkError).reason).toBeNull();
  });

  it("answers undefined for a 204", async () => {
    reply = () => new Response(null, { status: 204 });

    expect(await answer(client.POST("/api/auth/logout/"))).toBeUndefined();
  });

  it("sends a multipart body as FormData, with the CSRF token and no JSON content type", async () => {
    reply = () => json(201, { created: 0 });
    const file = new Blob(["{}"], { type: "application/json" });

    await answer(
      client.POST("/api/projects/{id}/imports/", {
        params: { path: { id: 3 } },
        body: multipart<Schemas["ImportRequestRequest"]>({
          file,
          format: "corefi",
          skip_invalid: true,
        }),
      }),
    );

    const form = await sent[0]!.formData();
    expect([form.get("format"), form.get("skip_invalid"), form.has("file")]).toEqual([
      "corefi",
      "true",
      true,
    ]);
    expect(sent[0]!.headers.get("Content-Type")).toMatch(/^multipart\/form-data/);
    expect(sent[0]!.headers.get("X-CSRFToken")).toBe("tok=en");
  });
});

describe("the endpoint functions", () => {
  it("answer the types of their paths, with no type chosen at the call site", () => {
    expectTypeOf(api.me).returns.resolves.toEqualTypeOf<Schemas["Me"]>();
    expectTypeOf(api.operation).returns.resolves.toEqualTypeOf<Schemas["Applied"]>();
    expectTypeOf(api.myAssignments).returns.resolves.toEqualTypeOf<Schemas["AssignmentRow"][]>();
  });

  it("refuse a path, a body or a parameter the schema does not describe (vue-tsc)", () => {
    // @ts-expect-error a path the server does not serve
    void (() => client.GET("/api/no-such-path/"));
    // @ts-expect-error a body without a field the serializer requires
    void (() => client.POST("/api/auth/login/", { body: { username: "a" } }));
    void (() =>
      client.POST("/api/annotations/{id}/undo/", {
        params: { path: { id: 1 } },
        // @ts-expect-error a body field of the wrong type
        body: { expected_version: "1" },
      }));
    // @ts-expect-error a missing path parameter
    void (() => client.GET("/api/topics/{id}/", { params: { path: {} } }));
  });
});
