import { describe, expect, it, vi } from "vitest";
import { KeyDispatcher } from "../../src/keyboard/dispatcher";
import { KEYMAP, keyString, lookup, type Scheme, schemesOf } from "../../src/keyboard/keymap";

const HIERARCHY: ReadonlySet<Scheme> = new Set(["any", "hierarchy"]);
const ANAPHORA: ReadonlySet<Scheme> = new Set(["any", "anaphora"]);

function key(k: string, extra: Partial<{ code: string; ctrlKey: boolean; altKey: boolean; shiftKey: boolean; metaKey: boolean }> = {}) {
  return { key: k, code: extra.code ?? "", ...extra };
}

describe("keyString", () => {
  it("names SPACE and its modified forms as the keymap writes them", () => {
    expect(keyString(key(" ", { code: "Space" }))).toBe("Space");
    expect(keyString(key(" ", { code: "Space", ctrlKey: true }))).toBe("Ctrl+Space");
    expect(keyString(key(" ", { code: "Space", altKey: true }))).toBe("Alt+Space");
  });

  it("upper-cases letters and keeps Shift only where it is not in the character", () => {
    expect(keyString(key("j", { code: "KeyJ" }))).toBe("J");
    expect(keyString(key("P", { code: "KeyP", shiftKey: true }))).toBe("Shift+P");
    expect(keyString(key("?", { code: "Slash", shiftKey: true }))).toBe("?");
    expect(keyString(key("Z", { code: "KeyZ", ctrlKey: true, shiftKey: true }))).toBe("Ctrl+Shift+Z");
  });

  it("reads the physical key when Alt changes the character (macOS)", () => {
    expect(keyString(key("Ω", { code: "KeyZ", altKey: true }))).toBe("Alt+Z");
  });
});

describe("the keymap", () => {
  it("has CoRefi's keys: SPACE assigns, Ctrl/Alt+SPACE starts a cluster, arrows move through clusters", () => {
    expect(lookup(KEYMAP, "workspace", "Space", HIERARCHY)?.command).toBe("assign");
    expect(lookup(KEYMAP, "workspace", "Ctrl+Space", HIERARCHY)?.command).toBe("assignNew");
    expect(lookup(KEYMAP, "workspace", "Alt+Space", HIERARCHY)?.command).toBe("assignNew");
    expect(lookup(KEYMAP, "workspace", "ArrowLeft", HIERARCHY)?.command).toBe("prevCluster");
    expect(lookup(KEYMAP, "workspace", "ArrowRight", HIERARCHY)?.command).toBe("nextCluster");
  });

  it("offers the link types 1-5 only in anaphora projects", () => {
    expect(lookup(KEYMAP, "workspace", "2", ANAPHORA)?.command).toBe("linkType2");
    expect(lookup(KEYMAP, "workspace", "2", HIERARCHY)).toBeUndefined();
    expect(lookup(KEYMAP, "workspace", "Space", ANAPHORA)).toBeUndefined();
  });

  it("has the suggestion keys in every project, and Y in the tree for the focused suggested edge", () => {
    for (const schemes of [HIERARCHY, ANAPHORA]) {
      expect(lookup(KEYMAP, "workspace", "Y", schemes)?.command).toBe("acceptSuggestion");
      expect(lookup(KEYMAP, "workspace", "X", schemes)?.command).toBe("rejectSuggestion");
      expect(lookup(KEYMAP, "workspace", "G", schemes)?.command).toBe("nextSuggestion");
      expect(lookup(KEYMAP, "workspace", "Shift+S", schemes)?.command).toBe("suggest");
      expect(lookup(KEYMAP, "workspace", "Shift+Y", schemes)?.command).toBe("acceptAbove");
    }
    expect(lookup(KEYMAP, "workspace", "Ctrl+Y", HIERARCHY)?.command).toBe("redo");
    expect(lookup(KEYMAP, "tree", "Y", HIERARCHY)?.command).toBe("treeAcceptSuggestion");
    expect(lookup(KEYMAP, "tree", "X", HIERARCHY)?.command).toBe("treeRejectSuggestion");
  });

  it("binds no key twice in one context", () => {
    const seen = new Map<string, string>();
    for (const binding of KEYMAP) {
      for (const k of binding.keys) {
        const id = `${binding.context}:${binding.scheme}:${k}`;
        expect(seen.get(id), id).toBeUndefined();
        seen.set(id, binding.command);
      }
    }
  });

  it("derives the schemes from the project flags", () => {
    const project = {
      hierarchy: true,
      anaphora: true,
      single_parent: false,
      allow_add_mentions: false,
      allow_fix_spans: false,
      allow_reject_mentions: true,
    };
    expect([...schemesOf(project)].sort()).toEqual(["anaphora", "any", "dag", "hierarchy", "mentions", "rejectMentions"]);
  });

  it("offers each mention key only where its setting is on", () => {
    const only = (flags: Partial<Record<"allow_add_mentions" | "allow_fix_spans" | "allow_reject_mentions", boolean>>) =>
      schemesOf({
        hierarchy: true,
        anaphora: false,
        single_parent: true,
        allow_add_mentions: false,
        allow_fix_spans: false,
        allow_reject_mentions: false,
        ...flags,
      });
    const reject = only({ allow_reject_mentions: true });
    expect(lookup(KEYMAP, "workspace", "Delete", reject)?.command).toBe("rejectMention");
    expect(lookup(KEYMAP, "workspace", "V", reject)).toBeUndefined();
    const add = only({ allow_add_mentions: true });
    expect(lookup(KEYMAP, "workspace", "V", add)?.command).toBe("selectText");
    expect(lookup(KEYMAP, "selection", "Enter", add)?.command).toBe("selectionAdd");
    expect(lookup(KEYMAP, "selection", "F", add)).toBeUndefined();
    expect(lookup(KEYMAP, "workspace", "Delete", add)).toBeUndefined();
  });

  it("has pickers (merge, parent) only in hierarchy projects", () => {
    expect(lookup(KEYMAP, "picker", "Enter", HIERARCHY)?.command).toBe("pickerChoose");
    expect(lookup(KEYMAP, "picker", "Enter", ANAPHORA)).toBeUndefined();
  });

  it("finds in text with Ctrl+F in every project; Enter, Shift+Enter and Escape move and close it", () => {
    expect(keyString(key("f", { code: "KeyF", ctrlKey: true }))).toBe("Ctrl+F");
    expect(keyString(key("Enter", { code: "Enter", shiftKey: true }))).toBe("Shift+Enter");
    for (const schemes of [HIERARCHY, ANAPHORA]) {
      const find = lookup(KEYMAP, "workspace", "Ctrl+F", schemes);
      expect(find?.command).toBe("findText");
      expect(find?.inTextFields).toBe(true);
      expect(find?.edits).toBeFalsy();
    }
    expect(lookup(KEYMAP, "find", "Enter", HIERARCHY)?.command).toBe("findNext");
    expect(lookup(KEYMAP, "find", "Shift+Enter", HIERARCHY)?.command).toBe("findPrev");
    expect(lookup(KEYMAP, "find", "Escape", HIERARCHY)?.command).toBe("findClose");
  });

  it("submits a validation topic with Ctrl+Enter (an edit) and opens the next one with Enter", () => {
    const VALIDATION: ReadonlySet<Scheme> = new Set(["any", "validation"]);
    const submit = lookup(KEYMAP, "validation", "Ctrl+Enter", VALIDATION);
    expect(submit?.command).toBe("validateSubmit");
    expect(submit?.edits).toBe(true);
    expect(lookup(KEYMAP, "validation", "Enter", VALIDATION)?.command).toBe("validateNextTopic");
  });

  it("submits a workspace topic with Ctrl+Enter, an edit no letter or slip can fire", () => {
    for (const schemes of [HIERARCHY, ANAPHORA]) {
      const submit = lookup(KEYMAP, "workspace", "Ctrl+Enter", schemes);
      expect(submit?.command).toBe("submit");
      expect(submit?.edits).toBe(true);
      expect(submit?.inTextFields).toBeFalsy();
    }
    expect(keyString(key("Enter", { code: "Enter", ctrlKey: true }))).toBe("Ctrl+Enter");
  });

  it("moves a selection by word, sentence (Alt) and line (up, down), and starts one from the find", () => {
    const SPANS: ReadonlySet<Scheme> = new Set(["any", "spans", "addMentions"]);
    const command = (k: string, context: "selection" | "find" = "selection") => lookup(KEYMAP, context, k, SPANS)?.command;
    expect(command("Ctrl+ArrowRight")).toBe("selectionRight");
    expect(command("Ctrl+Shift+ArrowLeft")).toBe("selectionExtendLeft");
    expect(command("Alt+ArrowRight")).toBe("selectionSentenceRight");
    expect(command("Alt+Shift+ArrowLeft")).toBe("selectionExtendSentenceLeft");
    expect(command("ArrowDown")).toBe("selectionLineDown");
    expect(command("Shift+ArrowUp")).toBe("selectionExtendLineUp");
    expect(command("Alt+Enter", "find")).toBe("findSelect");
    expect(lookup(KEYMAP, "find", "Alt+Enter", HIERARCHY)).toBeUndefined(); // no text to select
    expect(keyString(key("ArrowRight", { code: "ArrowRight", altKey: true, shiftKey: true }))).toBe("Alt+Shift+ArrowRight");
  });

  it("has a key to split and a key to open the next topic after submitting", () => {
    expect(lookup(KEYMAP, "workspace", "S", HIERARCHY)?.command).toBe("split");
    expect(lookup(KEYMAP, "workspace", "S", ANAPHORA)).toBeUndefined();
    expect(lookup(KEYMAP, "workspace", "Enter", ANAPHORA)?.command).toBe("nextTopic");
  });

  it("marks every key that changes the annotation, and no key that only moves", () => {
    const edits = (command: string) => KEYMAP.find((b) => b.command === command)?.edits === true;
    for (const command of ["assign", "assignNew", "merge", "split", "rename", "editNote", "linkType1", "undo", "redo", "acceptSuggestion"]) {
      expect(edits(command), command).toBe(true);
    }
    for (const command of ["nextMention", "prevCluster", "help", "escape", "focusTree", "nextSuggestion", "nextTopic"]) {
      expect(edits(command), command).toBe(false);
    }
  });
});

describe("the dispatcher", () => {
  const make = () => new KeyDispatcher(KEYMAP, () => HIERARCHY);
  const target = (attrs: { tagName?: string; type?: string; context?: string } = {}) => ({
    tagName: attrs.tagName ?? "DIV",
    type: attrs.type,
    closest: (selector: string) =>
      selector === "[data-key-context]" && attrs.context ? { getAttribute: () => attrs.context ?? null } : null,
  });
  const event = (k: string, t = target(), extra = {}) => ({ ...key(k, extra), target: t, preventDefault: vi.fn() });

  it("runs the command of a key and prevents its default", () => {
    const keys = make();
    const assign = vi.fn();
    keys.register({ assign });
    const e = event(" ", target(), { code: "Space" });
    expect(keys.handle(e)).toBe(true);
    expect(assign).toHaveBeenCalledOnce();
    expect(e.preventDefault).toHaveBeenCalled();
  });

  it("ignores workspace keys typed into a text field", () => {
    const keys = make();
    const next = vi.fn();
    keys.register({ nextMention: next });
    expect(keys.handle(event("j", target({ tagName: "INPUT", type: "search" })))).toBe(false);
    expect(next).not.toHaveBeenCalled();
  });

  it("lets SPACE and Enter activate a focused button", () => {
    const keys = make();
    const assign = vi.fn();
    keys.register({ assign });
    expect(keys.handle(event(" ", target({ tagName: "BUTTON" }), { code: "Space" }))).toBe(false);
    expect(assign).not.toHaveBeenCalled();
  });

  it("gives the focused region's keys precedence over the workspace's", () => {
    const keys = make();
    const prevCluster = vi.fn();
    const treeCollapse = vi.fn();
    keys.register({ prevCluster, treeCollapse });
    keys.handle(event("ArrowLeft", target({ context: "tree" })));
    expect(treeCollapse).toHaveBeenCalledOnce();
    expect(prevCluster).not.toHaveBeenCalled();
    keys.handle(event("ArrowLeft"));
    expect(prevCluster).toHaveBeenCalledOnce();
  });

  it("sends every key to an open modal and none to the workspace", () => {
    const keys = make();
    const assign = vi.fn();
    const pickerChoose = vi.fn();
    keys.register({ assign, pickerChoose });
    const leave = keys.pushContext("picker");
    expect(keys.handle(event(" ", target(), { code: "Space" }))).toBe(false);
    keys.handle(event("Enter", target({ tagName: "INPUT", type: "search" })));
    expect(pickerChoose).toHaveBeenCalledOnce();
    expect(assign).not.toHaveBeenCalled();
    leave();
    keys.handle(event(" ", target(), { code: "Space" }));
    expect(assign).toHaveBeenCalledOnce();
  });

  it("uses the latest registration and restores the previous one when it is removed", () => {
    const keys = make();
    const first = vi.fn();
    const second = vi.fn();
    keys.register({ pickerCancel: first });
    const remove = keys.register({ pickerCancel: second });
    keys.pushContext("picker");
    keys.handle(event("Escape"));
    remove();
    keys.handle(event("Escape"));
    expect(second).toHaveBeenCalledOnce();
    expect(first).toHaveBeenCalledOnce();
  });

  it("gives the arrows to a text selection while there is one, in a project that edits mentions", () => {
    const keys = new KeyDispatcher(KEYMAP, () => new Set<Scheme>(["any", "hierarchy", "mentions", "spans"]));
    const prevCluster = vi.fn();
    const selectionLeft = vi.fn();
    const selectionExtendRight = vi.fn();
    keys.register({ prevCluster, selectionLeft, selectionExtendRight });
    const leave = keys.pushContext("selection");
    keys.handle(event("ArrowLeft"));
    keys.handle(event("ArrowRight", target(), { shiftKey: true }));
    expect(selectionLeft).toHaveBeenCalledOnce();
    expect(selectionExtendRight).toHaveBeenCalledOnce();
    expect(prevCluster).not.toHaveBeenCalled();
    leave();
    keys.handle(event("ArrowLeft"));
    expect(prevCluster).toHaveBeenCalledOnce();
  });

  it("answers an editing key at once in a read-only workspace, without running it", () => {
    const refused: string[] = [];
    let readOnly = true;
    const keys = new KeyDispatcher(KEYMAP, () => HIERARCHY, { readOnly: () => readOnly, refuse: (b) => refused.push(b.command) });
    const rename = vi.fn();
    const nextMention = vi.fn();
    keys.register({ rename, nextMention });
    const e = event("F2");
    expect(keys.handle(e)).toBe(true);
    expect(e.preventDefault).toHaveBeenCalled();
    keys.handle(event(" ", target(), { code: "Space" }));
    keys.handle(event("j", target(), { code: "KeyJ" }));
    expect(rename).not.toHaveBeenCalled();
    expect(refused).toEqual(["rename", "assign"]);
    expect(nextMention).toHaveBeenCalledOnce();
    readOnly = false;
    keys.handle(event("F2"));
    expect(rename).toHaveBeenCalledOnce();
  });

  it("lets a handler decline a key (returning false), which keeps its default", () => {
    const keys = make();
    keys.register({ escape: () => false });
    const e = event("Escape");
    expect(keys.handle(e)).toBe(false);
    expect(e.preventDefault).not.toHaveBeenCalled();
  });
});
