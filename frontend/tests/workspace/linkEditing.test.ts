// Editing links in place: the order [ and ] walk, the retype operation and its effects (the
// TypeScript twin of annotation/domain/operations/links.py's retype_links), and the keys.
import { describe, expect, it } from "vitest";
import type { AnnotationPayload, Effect, Operation, TopicPayload } from "../../src/api/types";
import { applyEffects, invertEffects } from "../../src/domain/effects";
import { linkKey } from "../../src/domain/state";
import { KEYMAP, lookup, type Scheme } from "../../src/keyboard/keymap";
import { createCommands } from "../../src/workspace/commands";
import type { Editing } from "../../src/workspace/editing";
import { workspaceKeyHandlers, type KeyHandlerDeps } from "../../src/workspace/keyHandlers";
import {
  linksOfMention,
  otherEnd,
  retypeOperation,
  stepLink,
  tokenPlace,
} from "../../src/workspace/linkEditing";
import { createAnnotationStore } from "../../src/workspace/stores/annotation";
import { createNavigationStore } from "../../src/workspace/stores/navigation";
import { createNotices } from "../../src/workspace/stores/notices";
import { createUiStore } from "../../src/workspace/stores/ui";
import { createTopicModel } from "../../src/workspace/topicModel";
import { topic } from "../domain/factories";

// Mentions 1-4 of document 1 start at tokens 0, 4, 8, 12.
const LINKS = {
  links: [
    ["COREFERENCE", 2, 1],
    ["WORK_UP", 3, 2],
    ["CONTAINED", 4, 2],
  ] as ["COREFERENCE" | "WORK_UP" | "CONTAINED", number, number][],
};

describe("the links of a mention", () => {
  it("are ordered by where their other end starts, and [ ] wrap through them", () => {
    const state = topic({}, LINKS);
    const links = linksOfMention(state, 2);
    expect(links.map(linkKey)).toEqual(["COREFERENCE|2|1", "WORK_UP|3|2", "CONTAINED|4|2"]);
    expect(links.map((l) => otherEnd(l, 2))).toEqual([1, 3, 4]);
    expect(stepLink(links, null, 1, linkKey)).toBe(links[0]);
    expect(stepLink(links, null, -1, linkKey)).toBe(links[2]);
    expect(stepLink(links, "CONTAINED|4|2", 1, linkKey)).toBe(links[0]);
    expect(stepLink(links, "COREFERENCE|2|1", -1, linkKey)).toBe(links[2]);
    expect(stepLink([], null, 1, linkKey)).toBeNull();
  });

  it("place a token by sentence and word, so equal texts differ", () => {
    const sentences: [number, number][] = [
      [0, 5],
      [5, 12],
    ];
    expect(tokenPlace(sentences, 0)).toEqual({ sentence: 1, word: 1 });
    expect(tokenPlace(sentences, 7)).toEqual({ sentence: 2, word: 3 });
  });
});

describe("retype_links", () => {
  it("is one operation for a chosen set, and nothing when every link has the type", () => {
    const links = [
      { type: "COREFERENCE" as const, anaphor: 2, antecedent: 1 },
      { type: "WORK_UP" as const, anaphor: 3, antecedent: 2 },
    ];
    expect(retypeOperation(links, "CONTAINED")).toEqual({
      op: "retype_links",
      type: "CONTAINED",
      links: [
        { type: "COREFERENCE", anaphor: 2, antecedent: 1 },
        { type: "WORK_UP", anaphor: 3, antecedent: 2 },
      ],
    });
    expect(retypeOperation([links[1]!], "WORK_UP")).toBeNull();
  });

  it("applies as the server's effects say, and its inverse (undo) restores the links", () => {
    const state = topic({}, LINKS);
    const before = state.snapshot();
    const effects: Effect[] = [
      { e: "link_removed", type: "COREFERENCE", anaphor: 2, antecedent: 1 },
      { e: "link_removed", type: "WORK_UP", anaphor: 3, antecedent: 2 },
      { e: "link_added", type: "TRANSFORMED", anaphor: 2, antecedent: 1 },
      { e: "link_added", type: "TRANSFORMED", anaphor: 3, antecedent: 2 },
    ];
    applyEffects(state, effects);
    expect([...state.links.keys()].sort()).toEqual([
      "CONTAINED|4|2",
      "TRANSFORMED|2|1",
      "TRANSFORMED|3|2",
    ]);
    expect([...state.mentionLinks.get(1)!]).toEqual(["TRANSFORMED|2|1"]);
    applyEffects(state, invertEffects(effects));
    expect(state.snapshot()).toEqual(before);
  });
});

const ANAPHORA: ReadonlySet<Scheme> = new Set(["any", "anaphora", "rejectMentions"]);

describe("the link keys", () => {
  it("are in the keymap (so in ?): Shift+Delete removes the link while Delete still rejects", () => {
    const command = (key: string) => lookup(KEYMAP, "workspace", key, ANAPHORA)?.command;
    expect(command("Shift+Delete")).toBe("removeLink");
    expect(command("Delete")).toBe("rejectMention");
    expect(command("]")).toBe("nextLink");
    expect(command("[")).toBe("prevLink");
    expect(command("O")).toBe("followLink");
    expect(command("Alt+3")).toBe("linkAlso");
    expect(command("3")).toBe("linkType3");
  });
});

/** A workspace on the factory topic (document 1: mentions 1-4), recording what it would send. */
function workspace(links: ["COREFERENCE" | "WORK_UP" | "CONTAINED", number, number][]) {
  const tokens = Array.from({ length: 40 }, (_, i) => `w${i}`);
  const topicModel = createTopicModel({
    documents: [{ id: 1, position: 0, doc_id: "d1", tokens, sentences: [[0, 40]], metadata: {} }],
    project: {
      anaphora: true,
      hierarchy: false,
      allow_reject_mentions: true,
      refuse_duplicate_link_pairs: false,
    },
  } as unknown as TopicPayload);
  const payload = {
    version: 0,
    mentions: [1, 2, 3, 4].map((id) => ({
      id,
      document: 1,
      spans: [[4 * (id - 1), 4 * (id - 1) + 1]],
      added: false,
      rejected: false,
    })),
    clusters: [],
    edges: [],
    links,
    decisions: {},
  } as unknown as AnnotationPayload;
  const store = createAnnotationStore(topicModel, payload);
  const nav = createNavigationStore(store, topicModel);
  const notices = createNotices();
  const sent: Operation[] = [];
  const editing = {
    op: (operation: Operation) => void sent.push(operation),
    queue: { newLocalId: () => -1 },
  } as unknown as Editing;
  const commands = createCommands({ topic: topicModel, store, nav, editing, notices });
  const ui = createUiStore();
  const handlers = workspaceKeyHandlers({
    commands,
    nav,
    ui,
    notices,
    store,
  } as unknown as KeyHandlerDeps);
  const press = (command: keyof typeof handlers, code = "") =>
    handlers[command]!({ key: "", code });
  return { nav, ui, notices, sent, press, commands };
}

describe("keys on links", () => {
  it("another type on a linked pair changes the link's type instead of adding a second link", () => {
    const w = workspace([["COREFERENCE", 2, 1]]);
    w.nav.current.set(2);
    w.commands.markAnaphor();
    w.nav.current.set(1);
    w.press("linkType4");
    expect(w.sent).toEqual([
      {
        op: "retype_links",
        type: "WORK_UP",
        links: [{ type: "COREFERENCE", anaphor: 2, antecedent: 1 }],
      },
    ]);
    // Alt with the digit adds the second type, as before.
    w.press("linkAlso", "Digit5");
    expect(w.sent[1]).toEqual({ op: "add_link", type: "CONTAINED", anaphor: 2, antecedent: 1 });
  });

  it("] chooses the current mention's next link, a digit retypes it, Shift+Delete removes it, O follows it", () => {
    const w = workspace([
      ["COREFERENCE", 2, 1],
      ["WORK_UP", 3, 2],
    ]);
    w.nav.current.set(2);
    w.press("nextLink");
    w.press("nextLink");
    expect(w.nav.link.value).toBe("WORK_UP|3|2");
    w.press("linkType3");
    expect(w.sent.at(-1)).toEqual({
      op: "retype_links",
      type: "REACTION_ASSOCIATED",
      links: [{ type: "WORK_UP", anaphor: 3, antecedent: 2 }],
    });
    expect(w.nav.link.value).toBe("REACTION_ASSOCIATED|3|2"); // the current link keeps up
    w.nav.link.set("WORK_UP|3|2"); // (nothing here applies what the server would answer)
    w.press("prevLink");
    expect(w.nav.link.value).toBe("COREFERENCE|2|1");
    w.press("followLink");
    expect(w.nav.current.value).toBe(1);
    w.press("removeLink");
    expect(w.sent.at(-1)).toEqual({
      op: "remove_link",
      type: "COREFERENCE",
      anaphor: 2,
      antecedent: 1,
    });
  });

  it("the links ticked in the list take one type together, then are unticked", () => {
    const w = workspace([
      ["COREFERENCE", 2, 1],
      ["WORK_UP", 3, 2],
      ["CONTAINED", 4, 2],
    ]);
    w.ui.chosenLinks.add("COREFERENCE|2|1");
    w.ui.chosenLinks.add("CONTAINED|4|2");
    w.press("linkType2");
    expect(w.sent).toEqual([
      {
        op: "retype_links",
        type: "TRANSFORMED",
        links: [
          { type: "COREFERENCE", anaphor: 2, antecedent: 1 },
          { type: "CONTAINED", anaphor: 4, antecedent: 2 },
        ],
      },
    ]);
    expect(w.ui.chosenLinks.size).toBe(0);
  });
});
