// The admin pages' actions (save, create, assign, export, queue suggestions, change a user)
// share one shape: a button disabled while the request runs, then one line saying how it
// went. Each page used to write that out by hand (busy flag, try/catch/finally, errorText),
// and the copies had begun to differ in small ways (one kept the last line while the next
// request ran); written once here, every page behaves and words failures the same way.
import { computed, ref, type ComputedRef, type Ref } from "vue";
import { errorText } from "./format";

/** One line of feedback, as StatusMessage shows it. */
export type Message = { kind: "ok" | "error" | "info"; text: string };

/** What an action reports: a text is an ok message; nothing, no message (it navigated away). */
export type Outcome = string | Message | void;

export interface Action {
  busy: ComputedRef<boolean>;
  message: Ref<Message | null>;
  /** Runs the action and says how it went; true when it succeeded. */
  run: (action: () => Promise<Outcome>) => Promise<boolean>;
}

export function useAction(): Action {
  // A count, not a flag: where actions may overlap (the users table), the first to end
  // must not report the page idle while another still runs.
  const running = ref(0);
  const message = ref<Message | null>(null);

  async function run(action: () => Promise<Outcome>): Promise<boolean> {
    running.value += 1;
    message.value = null;
    try {
      const outcome = await action();
      if (outcome)
        message.value = typeof outcome === "string" ? { kind: "ok", text: outcome } : outcome;
      return true;
    } catch (e) {
      message.value = { kind: "error", text: errorText(e) };
      return false;
    } finally {
      running.value -= 1;
    }
  }

  return { busy: computed(() => running.value > 0), message, run };
}
