// The decisions as the validator sees them: what the server confirmed (changed only by the
// server's `validation_set` effects, checked like every effect) and, on top, what is on its
// way there. A decision shows at once (the next mention must be on screen within 50 ms); it
// leaves the overlay when the server answers: confirmed by its effect, or refused.
import { shallowRef } from "vue";
import type { Effect } from "../api/types";
import { CorruptEffects } from "../domain/effects";
import type { Verdict } from "./types";

function same(a: Verdict | null | undefined, b: Verdict | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return (
    a.decision === b.decision && (a.reason ?? null) === (b.reason ?? null) && a.note === b.note
  );
}

// Plain maps and one revision counter that readers depend on: a reactive Map of 2,000
// entries made every count over the topic track thousands of keys, which cost the frame
// after a decision its budget.
export class Decisions {
  readonly confirmed: Map<number, Verdict>;
  private readonly pending = new Map<number, { edit: number; verdict: Verdict }>();
  private readonly revision = shallowRef(0);

  constructor(initial: Record<string, Verdict>) {
    this.confirmed = new Map(Object.entries(initial).map(([k, v]) => [Number(k), v]));
  }

  private changed(): void {
    this.revision.value += 1;
  }

  get(mention: number): Verdict | undefined {
    void this.revision.value;
    return this.pending.get(mention)?.verdict ?? this.confirmed.get(mention);
  }

  propose(mention: number, verdict: Verdict, edit: number): void {
    this.pending.set(mention, { edit, verdict });
    this.changed();
  }

  /** Apply the server's effects; returns the mentions they touched. Throws CorruptEffects when
   * an effect does not fit what the server confirmed before (the page then reloads). */
  applied(effects: readonly Effect[], edit?: number): number[] {
    const touched: number[] = [];
    for (const effect of effects) {
      if (effect.e !== "validation_set") continue;
      if (!same(this.confirmed.get(effect.mention), effect.old))
        throw new CorruptEffects("validation differs", effect);
      if (effect.new) this.confirmed.set(effect.mention, effect.new);
      else this.confirmed.delete(effect.mention);
      touched.push(effect.mention);
    }
    if (edit !== undefined) this.dropEdit(edit);
    this.changed();
    return touched;
  }

  refused(edit: number): void {
    this.dropEdit(edit);
    this.changed();
  }

  clearPending(): void {
    this.pending.clear();
    this.changed();
  }

  private dropEdit(edit: number): void {
    for (const [mention, entry] of this.pending)
      if (entry.edit === edit) this.pending.delete(mention);
  }

  count(ids: readonly number[]): { decided: number; rejected: number } {
    void this.revision.value;
    let decided = 0;
    let rejected = 0;
    for (const id of ids) {
      const verdict = this.pending.get(id)?.verdict ?? this.confirmed.get(id);
      if (!verdict) continue;
      decided += 1;
      if (verdict.decision === "rejected") rejected += 1;
    }
    return { decided, rejected };
  }
}
