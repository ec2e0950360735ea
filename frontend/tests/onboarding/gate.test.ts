import { describe, expect, it, vi } from "vitest";
import type { LoadedWorkspace } from "../../src/workspace/workspace";
import { AssignmentLocked, loadUnlockedWorkspace } from "../../src/onboarding/gate";

function loaded(
  row: { locked?: string | null; practice?: string | null },
  version = 0,
): LoadedWorkspace {
  return {
    assignment: { id: 3, locked: row.locked ?? null, practice: row.practice ?? null },
    annotation: { version },
    topic: {},
  } as unknown as LoadedWorkspace;
}

describe("opening an assignment", () => {
  it("refuses a locked one with the server's reason", async () => {
    const load = vi.fn(async () => loaded({ locked: "Locked until you qualify for P: pass t." }));
    await expect(loadUnlockedWorkspace(3, load)).rejects.toThrow(AssignmentLocked);
    await expect(loadUnlockedWorkspace(3, load)).rejects.toThrow("Locked until you qualify for P");
  });

  it("starts a new guided topic, then loads it again with what was placed", async () => {
    const load = vi
      .fn()
      .mockResolvedValueOnce(loaded({ practice: "guided" }))
      .mockResolvedValueOnce(loaded({ practice: "guided" }, 1));
    const start = vi.fn(async () => ({ placed: 1 }));
    const result = await loadUnlockedWorkspace(3, load, start);
    expect(start).toHaveBeenCalledWith(3);
    expect(result.annotation.version).toBe(1);
  });

  it("leaves a started guided topic and any other topic as they are", async () => {
    const start = vi.fn(async () => ({ placed: 0 }));
    await loadUnlockedWorkspace(3, async () => loaded({ practice: "guided" }, 4), start);
    await loadUnlockedWorkspace(3, async () => loaded({ practice: "scored" }), start);
    await loadUnlockedWorkspace(3, async () => loaded({}), start);
    expect(start).not.toHaveBeenCalled();
  });
});
