import { describe, expect, it } from "vitest";
import { keysOf, workspaceTour } from "../../src/onboarding/workspaceTour";

describe("the workspace tour", () => {
  it("names the keys of the keymap", () => {
    expect(keysOf("assignNew")).toBe("Ctrl+Space or Alt+Space");
    expect(keysOf("undo")).toBe("Ctrl+Z");
    const text = workspaceTour({ hierarchy: true, anaphora: false })
      .map((s) => s.content)
      .join(" ");
    expect(text).toContain("Ctrl+Space or Alt+Space starts a new cluster");
    expect(text).toContain("Keys button");
  });

  it("speaks of no part of CoRefi's screen", () => {
    for (const project of [
      { hierarchy: true, anaphora: false },
      { hierarchy: false, anaphora: true },
    ]) {
      const text = workspaceTour(project)
        .map((s) => `${s.title} ${s.content}`)
        .join(" ");
      expect(text).not.toMatch(/bottom left|black '\?'|Reset|CoRefi/);
    }
  });

  it("shows the panels the project has", () => {
    const targets = (p: { hierarchy: boolean; anaphora: boolean }) =>
      workspaceTour(p).map((s) => s.target);
    expect(targets({ hierarchy: true, anaphora: false })).toEqual(
      expect.arrayContaining([".bank", ".tree-panel", ".m.is-current", ".ws-actions"]),
    );
    expect(targets({ hierarchy: true, anaphora: false })).not.toContain(".anaphora-panel");
    expect(targets({ hierarchy: false, anaphora: true })).toContain(".anaphora-panel");
    expect(targets({ hierarchy: false, anaphora: true })).not.toContain(".bank");
  });
});
