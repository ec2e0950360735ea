// The typed client every endpoint module calls: openapi-fetch over the `paths` that
// `npm run api` generates from the server's schema, so a path, its parameters, its request
// body and its answer are checked against the serializers; nothing at a call site names a
// response type. On top of it: the CSRF header on every write, and two error classes the
// rest of the app branches on (ApiError: the server answered with a refusal; NetworkError:
// it did not answer, or a gateway did).

import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./schema";

/** Every refusal: `{"error": code, "message": text, ...details}` (foundation/api/errors.py);
 * a version conflict (409) also carries `current_version`. Generated from the schema. */
export type ErrorBody = components["schemas"]["Error"] | components["schemas"]["VersionConflict"];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
    this.name = "ApiError";
  }

  get code(): string {
    return this.body.error;
  }
}

/** The server could not be reached (offline, connection refused, proxy 502-504), or said it
 * cannot save for a moment: `reason` "restoring" while a backup is being restored (the
 * server's 503 "restoring", corefapp/restoring.py). Either way the edit is sent again. */
export class NetworkError extends Error {
  constructor(
    message = "The server cannot be reached.",
    readonly reason: "restoring" | null = null,
  ) {
    super(message);
    this.name = "NetworkError";
  }
}

/** Our server is up but asks to be asked again after `seconds`: a 503 with Retry-After (too
 * many sign-ins at once, corefapp/sign_in_pool.py; a database outage). Still a NetworkError,
 * so code that only knows "no answer now" (the operation queue) treats it as before. */
export class RetryLater extends NetworkError {
  constructor(
    readonly seconds: number,
    readonly body: ErrorBody,
  ) {
    super(body.message, body.error === "restoring" ? "restoring" : null);
    this.name = "RetryLater";
  }

  get code(): string {
    return this.body.error;
  }
}

/** Retry-After's seconds (a number, or an HTTP date), or null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: number = Date.now()): number | null {
  if (header === null || header.trim() === "") return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

const GATEWAY_STATUSES = new Set([502, 503, 504]);
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function readCookie(
  name: string,
  cookies: string = globalThis.document?.cookie ?? "",
): string | null {
  for (const part of cookies.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

/** A client of the API at `baseUrl` (the page's own origin in the app; tests give one). */
export function createApiClient(baseUrl = ""): Client<paths, "application/json"> {
  // Answers typed as JSON: an endpoint that can also send CSV or a file is read as JSON
  // here (the downloads go through plain links or `download` in admin.ts).
  const client = createClient<paths, "application/json">({
    baseUrl,
    credentials: "same-origin",
    headers: { Accept: "application/json" },
    // Looked up at each call, not once: whatever fetch the page (or a test) has now.
    fetch: (request) => globalThis.fetch(request),
  });
  client.use({
    onRequest({ request }) {
      if (WRITE_METHODS.has(request.method))
        request.headers.set("X-CSRFToken", readCookie("csrftoken") ?? "");
      return request;
    },
  });
  return client;
}

export const client = createApiClient();

/** The error body of a refusal, or a generic one when the answer is not ours (a proxy's page). */
export function errorBody(status: number, data: unknown): ErrorBody {
  return data !== null && typeof data === "object" && "error" in data && "message" in data
    ? (data as ErrorBody)
    : { error: `http_${status}`, message: `The server answered ${status}.` };
}

/** What openapi-fetch answers: the data, or the error body, with the response. */
interface Answer<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/** The data of a call of `client`, or the app's error: ApiError for a refusal, NetworkError
 * when no answer came or a gateway answered (502-504). An empty answer (204) is undefined. */
export async function answer<D>(pending: Promise<Answer<D>>): Promise<D> {
  let result: Answer<D>;
  try {
    result = await pending;
  } catch (error) {
    throw new NetworkError(
      error instanceof Error ? `The server cannot be reached (${error.message}).` : undefined,
    );
  }
  const { data, error, response } = result;
  const retryAfter =
    response.status === 503 ? retryAfterSeconds(response.headers.get("Retry-After")) : null;
  if (retryAfter !== null) throw new RetryLater(retryAfter, errorBody(response.status, error));
  if (GATEWAY_STATUSES.has(response.status)) {
    const restoring = response.status === 503 && errorBody(503, error).error === "restoring";
    throw new NetworkError(
      `The server answered ${response.status}.`,
      restoring ? "restoring" : null,
    );
  }
  if (!response.ok) throw new ApiError(response.status, errorBody(response.status, error));
  return data as D;
}

type MultipartValue<V> = V extends boolean ? boolean : V extends string ? V | Blob : V;

/** A multipart body from the fields the schema names (it gives a file as a string of
 * bytes; the form sends the File): openapi-fetch sends FormData as it is. */
export function multipart<B extends object>(
  fields: NoInfer<{ [K in keyof B]: MultipartValue<B[K]> }>,
): B {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields) as [string, boolean | string | Blob][]) {
    form.append(name, typeof value === "boolean" ? String(value) : value);
  }
  return form as unknown as B;
}

type Backend = components["schemas"]["BackendEnum"];

/** A run's or a project's backend, as the form holds it: one of the names the server offers
 * (GET /api/suggestion-backends/ answers them as strings), or "" for the project's default. */
export const backendOf = (name: string | undefined): { backend?: Backend } =>
  name ? { backend: name as Backend } : {};
