// A small fetch wrapper: JSON in and out, the CSRF header on every write, and two error
// classes the rest of the app branches on (ApiError: the server answered; NetworkError: it
// did not).

import type { ErrorBody } from "./types";

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

/** The server could not be reached (offline, connection refused, proxy 502-504). */
export class NetworkError extends Error {
  constructor(message = "The server cannot be reached.") {
    super(message);
    this.name = "NetworkError";
  }
}

const GATEWAY_STATUSES = new Set([502, 503, 504]);
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function readCookie(name: string, cookies: string = document.cookie): string | null {
  for (const part of cookies.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return null;
}

export interface RequestOptions {
  method?: string;
  body?: unknown;
  keepalive?: boolean;
}

export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? "GET";
  const headers: Record<string, string> = { Accept: "application/json" };
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  if (WRITE_METHODS.has(method)) headers["X-CSRFToken"] = readCookie("csrftoken") ?? "";
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      keepalive: options.keepalive,
    });
  } catch (error) {
    throw new NetworkError(error instanceof Error ? `The server cannot be reached (${error.message}).` : undefined);
  }
  if (GATEWAY_STATUSES.has(response.status)) throw new NetworkError(`The server answered ${response.status}.`);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const body =
      data && typeof data === "object" && "error" in data
        ? (data as ErrorBody)
        : { error: `http_${response.status}`, message: `The server answered ${response.status}.` };
    throw new ApiError(response.status, body);
  }
  return data as T;
}
