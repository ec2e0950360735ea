// Keeps the local state in version order whatever path a change takes: our own edits come
// back in the HTTP answer, other tabs' edits through the websocket. A change is applied only
// when its version is exactly local + 1; later ones wait for the gap to fill, and a gap that
// stays open (a lost message) makes the workspace reload.

import type { Applied } from "../api/types";

export interface VersionSyncHost {
  version(): number;
  /** Apply one change whose version is local + 1; throw if its effects do not fit. */
  apply(applied: Applied): void;
  reload(reason: string): Promise<void>;
  /** Whether one of our own edits is in flight (its version may be the missing one). */
  busy(): boolean;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
}

export class VersionSync {
  private readonly waiting = new Map<number, Applied>();
  private timer: unknown = null;

  constructor(
    private readonly host: VersionSyncHost,
    private readonly gapWaitMs = 1500,
  ) {}

  receive(applied: Applied): void {
    if (applied.version <= this.host.version()) return;
    this.waiting.set(applied.version, applied);
    this.drain();
  }

  /** Forget what waits (after a reload brought everything up to date). */
  reset(): void {
    this.waiting.clear();
    this.stopTimer();
  }

  drain(): void {
    let next = this.waiting.get(this.host.version() + 1);
    while (next !== undefined) {
      this.waiting.delete(next.version);
      try {
        this.host.apply(next);
      } catch (error) {
        this.reset();
        void this.host.reload(`the changes did not fit the local state (${String(error)})`);
        return;
      }
      next = this.waiting.get(this.host.version() + 1);
    }
    for (const version of this.waiting.keys())
      if (version <= this.host.version()) this.waiting.delete(version);
    if (this.waiting.size === 0) this.stopTimer();
    else if (this.timer === null) {
      const set = this.host.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
      this.timer = set(() => this.gapTimeout(), this.gapWaitMs);
    }
  }

  private gapTimeout(): void {
    this.timer = null;
    if (this.waiting.size === 0) return;
    if (this.host.busy()) {
      this.drain();
      return;
    }
    this.reset();
    void this.host.reload("a change from another tab was missed");
  }

  private stopTimer(): void {
    if (this.timer === null) return;
    const clear = this.host.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    clear(this.timer);
    this.timer = null;
  }
}
