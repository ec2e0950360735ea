// One validator's (or the consolidating adjudicator's) session on a topic: where they are,
// what they decided, and the edits on their way to the server through the workspace's
// operation queue (one in flight, versions checked, refusals reported, retries when offline).
import { computed, reactive, ref, shallowRef } from "vue";
import type { ApiError } from "../api/http";
import type { Applied, AppliedBatch, Id } from "../api/types";
import { type EditRequest, OperationQueue } from "../workspace/operationQueue";
import { Decisions } from "./decisions";
import { defaultOrder, visitOrder } from "./order";
import type { OrderMode, ValidationPayload, Verdict } from "./types";
import { type ValidationApi, validationApi } from "./api";

export function differs(others: ValidationPayload["others"], mention: number): boolean {
  const verdicts = Object.values(others).map((d) => d[String(mention)]?.decision ?? null);
  return verdicts.length > 0 && new Set(verdicts).size > 1;
}

export function createValidation(initial: ValidationPayload, api: ValidationApi = validationApi) {
  const payload = shallowRef(initial);
  const version = ref(initial.version);
  const status = ref(initial.status);
  const decisions = shallowRef(new Decisions(initial.decisions));
  const mode = ref<OrderMode>(defaultOrder(initial.mentions));
  const adjudicating = initial.kind === "adjudication";
  const onlyDiffering = ref(adjudicating && Object.keys(initial.others).length > 0);
  const notice = ref<string | null>(null);
  const canUndo = ref(initial.can_undo);
  const canRedo = ref(initial.can_redo);
  const rejecting = ref(false);
  const note = ref("");
  const clientId = `validation-${Math.random().toString(36).slice(2)}`;

  const mentions = computed(() => new Map(payload.value.mentions.map((m) => [m.id, m])));
  const clusters = computed(() => new Map(payload.value.clusters.map((c) => [c.id, c])));
  const documents = computed(() => new Map(payload.value.documents.map((d) => [d.id, d])));
  const order = computed(() => {
    const ids = visitOrder(mode.value, payload.value.mentions, payload.value.clusters);
    return onlyDiffering.value ? ids.filter((id) => differs(payload.value.others, id)) : ids;
  });
  const readOnly = computed(() => status.value === "submitted" || initial.assignment === null);
  const position = ref(0);
  const current = computed(() => order.value[position.value] ?? null);
  const counts = computed(() => decisions.value.count(order.value));
  // What must be decided: every mention; a consolidating adjudicator, only those the
  // validators decided differently (the others are settled by their agreement).
  const required = computed(() => {
    const ids = payload.value.mentions.map((m) => m.id);
    const others = payload.value.others;
    return adjudicating && Object.keys(others).length > 0
      ? ids.filter((id) => differs(others, id))
      : ids;
  });
  const allCounts = computed(() => decisions.value.count(payload.value.mentions.map((m) => m.id)));
  const finished = computed(
    () => decisions.value.count(required.value).decided === required.value.length,
  );

  function firstUndecided(from = 0): number {
    const ids = order.value;
    for (let k = 0; k < ids.length; k++) {
      const i = (from + k) % ids.length;
      if (!decisions.value.get(ids[i]!)) return i;
    }
    return ids.length; // every one decided: the finish panel
  }

  function goTo(mention: number | null | undefined): boolean {
    if (mention === null || mention === undefined) return false;
    const i = order.value.indexOf(mention);
    if (i < 0) return false;
    position.value = i;
    return true;
  }

  let cursorTimer: ReturnType<typeof setTimeout> | null = null;
  function rememberPlace(): void {
    if (readOnly.value) return;
    if (cursorTimer !== null) clearTimeout(cursorTimer);
    cursorTimer = setTimeout(() => {
      cursorTimer = null;
      void api.cursor(payload.value.id, current.value).catch(() => undefined);
    }, 400);
  }
  /** Leaving the page: the place not yet remembered goes now (keepalive outlives the page). */
  function flushPlace(): void {
    if (cursorTimer === null) return;
    clearTimeout(cursorTimer);
    cursorTimer = null;
    void api.cursor(payload.value.id, current.value, true).catch(() => undefined);
  }

  function move(to: number): void {
    rejecting.value = false;
    note.value = decisions.value.get(order.value[to] ?? -1)?.note ?? "";
    position.value = Math.max(0, Math.min(order.value.length, to));
    rememberPlace();
  }

  const queue = new OperationQueue(
    {
      send(request: EditRequest, expected: number): Promise<Applied | AppliedBatch> {
        if (request.kind === "undo") return api.undo(payload.value.id, expected, clientId);
        if (request.kind === "redo") return api.redo(payload.value.id, expected, clientId);
        if (request.kind === "op")
          return api.operation(payload.value.id, expected, request.operation, clientId);
        throw new Error("not a validation edit");
      },
    },
    {
      version: () => version.value,
      applied(applied, edit) {
        version.value = applied.version;
        const touched = decisions.value.applied(applied.effects, edit.id);
        if (applied.kind === "do") canRedo.value = false;
        if (applied.kind === "undo") canRedo.value = true;
        if (applied.kind !== "do" && touched[0] !== undefined) {
          // Back to the mention whose decision changed, so the validator sees it again.
          if (!order.value.includes(touched[0])) onlyDiffering.value = false;
          goTo(touched[0]);
          rememberPlace();
          rejecting.value = false;
          note.value = decisions.value.get(touched[0])?.note ?? "";
        }
        canUndo.value = true;
        if (status.value === "assigned") status.value = "in_progress";
      },
      refused(edit, error) {
        decisions.value.refused(edit.id);
        notice.value = `Not saved: ${edit.description}. ${error.message}`;
        if (error.code === "nothing_to_undo") canUndo.value = false;
        if (error.code === "nothing_to_redo") canRedo.value = false;
      },
      async conflict() {
        notice.value = "This topic changed in another tab; it was reloaded.";
        await reload();
      },
      locked(error: ApiError) {
        decisions.value.clearPending();
        status.value = "submitted";
        notice.value = error.message;
      },
    },
    {
      status: reactive({ queued: 0, inFlight: false, offline: false, paused: null, retryAt: null }),
    },
  );

  async function reload(): Promise<void> {
    const fresh = await api.load(payload.value.id);
    const at = current.value;
    payload.value = fresh;
    version.value = fresh.version;
    status.value = fresh.status;
    canUndo.value = fresh.can_undo;
    canRedo.value = fresh.can_redo;
    decisions.value = new Decisions(fresh.decisions);
    if (!goTo(at)) position.value = firstUndecided();
  }

  function decide(verdict: Verdict): void {
    const mention = current.value;
    if (mention === null || readOnly.value) return;
    const text = describe(mention, verdict);
    const edit = queue.enqueue(
      {
        kind: "op",
        operation: {
          op: "validate",
          mention,
          decision: verdict.decision,
          reason: verdict.reason,
          note: verdict.note,
        },
      },
      text,
    );
    decisions.value.propose(mention, verdict, edit.id);
    const next = firstUndecided(position.value + 1);
    move(next);
  }

  function describe(mention: number, verdict: Verdict): string {
    const m = mentions.value.get(mention);
    const doc = m ? documents.value.get(m.document) : undefined;
    const words =
      m && doc ? m.spans.map(([s, e]) => doc.tokens.slice(s, e + 1).join(" ")).join(" … ") : "";
    return `${verdict.decision === "accepted" ? "accept" : "reject"} "${words}"`;
  }

  const reasons = computed(() => payload.value.reasons);

  const actions = {
    accept: () => decide({ decision: "accepted", reason: null, note: note.value.trim() }),
    startReject: () => {
      if (current.value !== null && !readOnly.value) rejecting.value = true;
    },
    cancel: () => {
      rejecting.value = false;
    },
    reject: (index: number) => {
      const reason = reasons.value[index];
      if (!rejecting.value || !reason) return false;
      decide({ decision: "rejected", reason: reason.key, note: note.value.trim() });
      return true;
    },
    next: () => move(Math.min(position.value + 1, order.value.length - 1)),
    prev: () => move(Math.max(position.value - 1, 0)),
    nextUndecided: () => move(firstUndecided(position.value + 1)),
    undo: () => {
      if (!readOnly.value) queue.enqueue({ kind: "undo" }, "undo");
    },
    redo: () => {
      if (!readOnly.value) queue.enqueue({ kind: "redo" }, "redo");
    },
    setMode: (next: OrderMode) => {
      const at = current.value;
      mode.value = next;
      if (!goTo(at)) position.value = firstUndecided();
    },
    toggleDiffering: () => {
      const at = current.value;
      onlyDiffering.value = !onlyDiffering.value;
      if (!goTo(at)) position.value = firstUndecided();
    },
    async submit(): Promise<void> {
      const assignment = payload.value.assignment;
      if (assignment === null) return;
      // Every decision must be saved first: submitting locks the annotation.
      while (queue.status.queued > 0 || queue.status.inFlight) {
        if (queue.status.paused !== null || queue.status.offline) {
          notice.value = "Some decisions are not saved yet; submit again once they are.";
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      try {
        await api.submit(assignment);
        status.value = "submitted";
        notice.value = null; // the page's submitted banner says it, with the next topic
      } catch (error) {
        notice.value = error instanceof Error ? error.message : String(error);
      }
    },
  };

  // Resume: where the validator was (the remembered cursor), else the first mention to do.
  if (!goTo(initial.cursor)) position.value = firstUndecided();

  return {
    payload,
    version,
    status,
    decisions,
    mode,
    adjudicating,
    onlyDiffering,
    notice,
    canUndo,
    canRedo,
    rejecting,
    note,
    mentions,
    clusters,
    documents,
    order,
    position,
    current,
    counts,
    allCounts,
    required,
    finished,
    readOnly,
    reasons,
    queueStatus: queue.status,
    flushPlace,
    actions,
  };
}

export type Validation = ReturnType<typeof createValidation>;
export type { Id };
