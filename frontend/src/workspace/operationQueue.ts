// Every edit goes to the server at once and is confirmed there; none is dropped silently.
//
// - One edit in flight at a time; the next waits and is sent with the version the previous
//   one produced (`expected_version`).
// - Server unreachable, or restoring a backup (503 "restoring"): the edit stays at the head of
//   the queue and is retried with backoff; `status.offline` (and `status.restoring`) and
//   `status.queued` say so.
// - 409 version_conflict: every edit still queued was planned against a state that no longer
//   exists; they are discarded and handed to the host, which reloads and tells the user which.
// - A refusal (rule, malformed, not found, not allowed): that edit is dropped and reported;
//   the next ones go on.
// - 423 locked (submitted): everything queued is discarded and reported.
// - Signed out / CSRF: the queue pauses and keeps everything until `retryNow()`.
//
// A new cluster gets its server id only once the server answers, so an edit may name a
// cluster that an earlier queued edit creates: it uses a negative local id, which the queue
// replaces with the server's id before sending.
//
// A batch edit (accepting every suggestion above a threshold) is one request that the server
// answers with several changes, each its own version; they go to the host one by one, in order,
// and the next edit is sent with the version the last of them produced.

import { ApiError, NetworkError } from "../api/http";
import type { Applied, AppliedBatch, Decision, Id, Operation, SuggestionKind } from "../api/types";

export type EditRequest =
  | { kind: "op"; operation: Operation }
  | { kind: "undo" }
  | { kind: "redo" }
  | { kind: "acceptAbove"; threshold: number; kinds: SuggestionKind[] }
  /** Accept or reject these suggestions as one change (one undo step). */
  | { kind: "decide"; decision: Decision; suggestions: Id[] };

export interface Edit {
  readonly id: number;
  readonly request: EditRequest;
  readonly description: string;
  /** The negative local id that stands for the cluster or mention this edit creates. */
  readonly creates?: { local: Id; kind: "cluster" | "mention" };
  attempts: number;
}

export interface QueueTransport {
  /** One change, or a batch of them (acceptAbove). */
  send(request: EditRequest, expectedVersion: number): Promise<Applied | AppliedBatch>;
}

export function isBatch(result: Applied | AppliedBatch): result is AppliedBatch {
  return Array.isArray((result as AppliedBatch).applied);
}

export interface QueueHost {
  /** The version of the local state: what the next edit expects. */
  version(): number;
  /** One applied change (a batch edit calls it once per change, in version order). */
  applied(applied: Applied, edit: Edit): void;
  /** A batch edit was answered (after each of its changes went through `applied`). */
  batchDone?(edit: Edit, batch: AppliedBatch): void;
  refused(edit: Edit, error: ApiError): void;
  conflict(error: ApiError, discarded: Edit[]): Promise<void>;
  locked(error: ApiError, discarded: Edit[]): void;
}

export interface QueueStatus {
  queued: number;
  inFlight: boolean;
  offline: boolean;
  paused: string | null;
  retryAt: number | null;
  /** Offline because the server is restoring a backup (it refuses writes meanwhile). */
  restoring?: boolean;
}

export interface QueueOptions {
  status?: QueueStatus;
  backoffMs?: (attempt: number) => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  now?: () => number;
}

const RETRYABLE_STATUSES = new Set([408, 429]);
const SIGNED_OUT_CODES = new Set(["not_authenticated", "authentication_failed"]);

export function defaultBackoff(attempt: number): number {
  return Math.min(10_000, 500 * 2 ** Math.max(0, attempt - 1));
}

export class UnresolvedLocalId extends Error {}

/** Replace negative local ids by server ids, everywhere in the operation. */
export function resolveLocalIds<T>(value: T, resolved: ReadonlyMap<Id, Id>): T {
  if (typeof value === "number" && value < 0) {
    const id = resolved.get(value);
    if (id === undefined) throw new UnresolvedLocalId(String(value));
    return id as T;
  }
  if (Array.isArray(value)) return value.map((v: unknown) => resolveLocalIds(v, resolved)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = resolveLocalIds(v, resolved);
    return out as T;
  }
  return value;
}

export class OperationQueue {
  readonly status: QueueStatus;
  private readonly edits: Edit[] = [];
  private readonly resolved = new Map<Id, Id>();
  private running = false;
  private timer: unknown = null;
  private nextEdit = 1;
  private nextLocal = -1;
  private readonly backoff: (attempt: number) => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly now: () => number;

  constructor(
    private readonly transport: QueueTransport,
    private readonly host: QueueHost,
    options: QueueOptions = {},
  ) {
    this.status = options.status ?? {
      queued: 0,
      inFlight: false,
      offline: false,
      paused: null,
      retryAt: null,
    };
    this.backoff = options.backoffMs ?? defaultBackoff;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer =
      options.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this.now = options.now ?? (() => Date.now());
  }

  newLocalId(): Id {
    return this.nextLocal--;
  }

  /** The server id of a local id once known (a positive id is returned as it is). */
  serverId(id: Id): Id | undefined {
    return id >= 0 ? id : this.resolved.get(id);
  }

  pending(): readonly Edit[] {
    return this.edits;
  }

  enqueue(request: EditRequest, description: string, creates?: Edit["creates"]): Edit {
    const edit: Edit = { id: this.nextEdit++, request, description, creates, attempts: 0 };
    this.edits.push(edit);
    this.sync();
    void this.pump();
    return edit;
  }

  /** Send now (after going back online, or after signing in again). */
  retryNow(): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    this.status.retryAt = null;
    this.status.paused = null;
    void this.pump();
  }

  private sync(): void {
    this.status.queued = this.edits.length;
  }

  private async pump(): Promise<void> {
    if (this.running || this.timer !== null || this.status.paused !== null) return;
    this.running = true;
    try {
      while (this.edits.length > 0 && this.status.paused === null) {
        const edit = this.edits[0]!;
        let request: EditRequest;
        try {
          request = resolveLocalIds(edit.request, this.resolved);
        } catch (error) {
          if (!(error instanceof UnresolvedLocalId)) throw error;
          this.edits.shift();
          this.sync();
          this.host.refused(
            edit,
            new ApiError(0, {
              error: "depends_on_refused_edit",
              message: `Not sent: "${edit.description}" needs a cluster that an earlier, refused edit would have created.`,
            }),
          );
          continue;
        }
        this.status.inFlight = true;
        let result: Applied | AppliedBatch;
        try {
          result = await this.transport.send(request, this.host.version());
        } catch (error) {
          this.status.inFlight = false;
          if (await this.handleFailure(edit, error)) continue;
          return;
        }
        this.status.inFlight = false;
        this.status.offline = false;
        this.status.restoring = false;
        this.edits.shift();
        this.sync();
        if (isBatch(result)) {
          for (const applied of result.applied) this.host.applied(applied, edit);
          this.host.batchDone?.(edit, result);
          continue;
        }
        if (edit.creates) {
          const id = result.created[edit.creates.kind];
          if (id !== undefined) this.resolved.set(edit.creates.local, id);
        }
        this.host.applied(result, edit);
      }
    } finally {
      this.running = false;
      this.status.inFlight = false;
    }
  }

  /** Handle a failed send; true to go on with the next edit, false to stop the pump. */
  private async handleFailure(edit: Edit, error: unknown): Promise<boolean> {
    const retryable =
      error instanceof NetworkError ||
      (error instanceof ApiError && RETRYABLE_STATUSES.has(error.status));
    if (retryable) {
      edit.attempts += 1;
      this.status.offline = error instanceof NetworkError;
      this.status.restoring = error instanceof NetworkError && error.reason === "restoring";
      const delay = this.backoff(edit.attempts);
      this.status.retryAt = this.now() + delay;
      this.timer = this.setTimer(() => {
        this.timer = null;
        this.status.retryAt = null;
        void this.pump();
      }, delay);
      return false;
    }
    if (!(error instanceof ApiError)) throw error;
    this.status.offline = false;
    this.status.restoring = false;
    if (error.status === 409) {
      const discarded = this.edits.splice(0);
      this.sync();
      await this.host.conflict(error, discarded);
      return true;
    }
    if (error.status === 423) {
      const discarded = this.edits.splice(0);
      this.sync();
      this.host.locked(error, discarded);
      return true;
    }
    const signedOut =
      error.status === 401 || SIGNED_OUT_CODES.has(error.code) || /^CSRF/i.test(error.message);
    if (signedOut) {
      this.status.paused = error.message;
      return false;
    }
    this.edits.shift();
    this.sync();
    this.host.refused(edit, error);
    return true;
  }
}
