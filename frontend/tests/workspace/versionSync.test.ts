import { describe, expect, it, vi } from "vitest";
import type { Applied } from "../../src/api/types";
import { VersionSync } from "../../src/workspace/versionSync";

const change = (version: number): Applied => ({
  operation_id: version,
  version,
  name: "assign",
  kind: "do",
  effects: [],
  warnings: [],
  created: {},
  client_id: "other",
});

function setup(busy = false) {
  let version = 5;
  const applied: number[] = [];
  const timers: (() => void)[] = [];
  const reload = vi.fn(async () => undefined);
  const sync = new VersionSync({
    version: () => version,
    apply: (a) => {
      applied.push(a.version);
      version = a.version;
    },
    reload,
    busy: () => busy,
    setTimer: (fn) => timers.push(fn),
    clearTimer: () => timers.splice(0),
  });
  return { sync, applied, timers, reload };
}

describe("version ordering", () => {
  it("applies a change that is exactly the next version", () => {
    const { sync, applied } = setup();
    sync.receive(change(6));
    expect(applied).toEqual([6]);
  });

  it("ignores a change it already has", () => {
    const { sync, applied } = setup();
    sync.receive(change(5));
    expect(applied).toEqual([]);
  });

  it("holds a later change until the one before it arrives", () => {
    const { sync, applied } = setup();
    sync.receive(change(7));
    expect(applied).toEqual([]);
    sync.receive(change(6));
    expect(applied).toEqual([6, 7]);
  });

  it("reloads when a gap stays open", () => {
    const { sync, timers, reload } = setup();
    sync.receive(change(8));
    timers.shift()!();
    expect(reload).toHaveBeenCalledOnce();
  });

  it("reloads when effects do not fit the local state", () => {
    const reload = vi.fn(async () => undefined);
    const sync = new VersionSync({
      version: () => 5,
      apply: () => {
        throw new Error("cannot apply member_set: the mention is elsewhere");
      },
      reload,
      busy: () => false,
    });
    sync.receive(change(6));
    expect(reload).toHaveBeenCalledOnce();
  });
});
