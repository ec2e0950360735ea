// @vitest-environment happy-dom
// A key press re-renders only the mentions it changes, not every mention on the screen.
import { mount } from "@vue/test-utils";
import { describe, expect, it } from "vitest";
import { defineComponent, h, nextTick, watch } from "vue";
import type { Api } from "../../src/api/endpoints";
import type { AnnotationPayload, AssignmentRow, TopicPayload } from "../../src/api/types";
import ClusterDetail from "../../src/workspace/ClusterDetail.vue";
import PieceRun from "../../src/workspace/PieceRun.vue";
import { buildPieces } from "../../src/domain/pieces";
import { provideWorkspace } from "../../src/workspace/inject";
import { createWorkspace, type Workspace } from "../../src/workspace/workspace";

const TOKENS = Array.from({ length: 40 }, (_, i) => `w${i}`);
const MENTIONS = Array.from({ length: 10 }, (_, i) => ({
  id: i + 1,
  document: 1,
  spans: [[i * 4, i * 4 + 1]] as [number, number][],
}));

function loaded() {
  const topic: TopicPayload = {
    id: 1,
    external_id: "t",
    source: "",
    metadata: {},
    project: {
      id: 1,
      name: "p",
      hierarchy: true,
      anaphora: false,
      single_parent: true,
      allow_add_mentions: false,
      allow_fix_spans: false,
      allow_reject_mentions: false,
      refuse_duplicate_link_pairs: false,
      guidelines: "",
    },
    documents: [{ id: 1, position: 0, doc_id: "d", tokens: TOKENS, sentences: [], metadata: {} }],
    mentions: MENTIONS,
  };
  const annotation: AnnotationPayload = {
    id: 1,
    topic: 1,
    kind: "annotator",
    version: 0,
    assignment: 1,
    annotator: "a",
    status: "assigned",
    cursor: null,
    clusters: [
      { id: 100, label: "A", note: "", members: [1, 2] },
      { id: 200, label: "B", note: "", members: [3] },
    ],
    edges: [],
    links: [],
    decisions: {},
    can_undo: false,
    can_redo: false,
    import_marks: [],
    mentions: MENTIONS.map((m) => ({ ...m, added: false, rejected: false })),
  };
  const assignment: AssignmentRow = {
    id: 1,
    role: "annotator",
    status: "assigned",
    user: 1,
    topic: { id: 1, external_id: "t" },
    project: { id: 1, name: "p", hierarchy: true, anaphora: false },
    annotation: 1,
    version: 0,
    progress: { assigned: 3, total: 10 },
    last_edited: null,
    submitted_at: null,
  };
  return { topic, annotation, assignment };
}

const fakeApi = { cursor: () => Promise.resolve() } as unknown as Api;

function mountDocument() {
  let ws!: Workspace;
  const updates: number[] = [];
  const Host = defineComponent({
    setup() {
      ws = createWorkspace(loaded(), { api: fakeApi, live: false });
      provideWorkspace(ws);
      return () =>
        h(PieceRun, { pieces: buildPieces(TOKENS.length, MENTIONS), tokens: TOKENS, lo: 0 });
    },
  });
  const wrapper = mount(Host, {
    global: {
      mixins: [
        {
          updated(this: {
            $options: { __name?: string };
            $props: { piece?: { mention: number } };
          }) {
            if (this.$options.__name === "MentionPiece") updates.push(this.$props.piece!.mention);
          },
        },
      ],
    },
  });
  return { wrapper, ws: ws, updates };
}

describe("per-mention reactivity", () => {
  it("renders every mention of the document", () => {
    const { wrapper } = mountDocument();
    expect(wrapper.findAll(".m")).toHaveLength(10);
    expect(wrapper.find(".m.is-current").attributes("data-mention")).toBe("4");
  });

  it("re-renders only the old and the new current mention on J", async () => {
    const { wrapper, ws, updates } = mountDocument();
    ws.nav.step(1);
    await nextTick();
    expect(updates.sort()).toEqual([4, 5]);
    expect(wrapper.find(".m.is-current").attributes("data-mention")).toBe("5");
  });

  it("re-renders only the members of the old and the new selected cluster on an arrow", async () => {
    const { ws, updates } = mountDocument();
    ws.nav.selected.set(100);
    await nextTick();
    updates.length = 0;
    ws.nav.selectRelative(1);
    await nextTick();
    expect(updates.sort()).toEqual([1, 2, 3]);
  });

  it("re-renders only the assigned mention when the server's effects arrive", async () => {
    const { wrapper, ws, updates } = mountDocument();
    ws.store.apply({
      operation_id: 1,
      version: 1,
      name: "assign",
      kind: "do",
      warnings: [],
      created: {},
      client_id: "x",
      effects: [{ e: "member_set", mention: 7, old: null, new: 200 }],
    });
    await nextTick();
    expect(updates).toEqual([7]);
    expect(wrapper.find(".m[data-mention='7']").attributes("data-cluster")).toBe("200");
  });
});

describe("the navigation store's choices", () => {
  it("re-render a component that reads one when it changes", async () => {
    let ws!: Workspace;
    const Host = defineComponent({
      setup() {
        ws = createWorkspace(loaded(), { api: fakeApi, live: false });
        provideWorkspace(ws);
        return () => h(ClusterDetail);
      },
    });
    const wrapper = mount(Host);
    ws.nav.selected.set(100);
    await nextTick();
    expect(wrapper.find(".detail-label").text()).toBe("A");
    ws.nav.selected.set(200);
    await nextTick();
    expect(wrapper.find(".detail-label").text()).toBe("B");
  });

  it("are followed by a watch on the value read", async () => {
    const { ws } = mountDocument();
    const seen: (number | null)[] = [];
    watch(
      () => ws.nav.current.value,
      (id) => seen.push(id),
    );
    ws.nav.step(1);
    await nextTick();
    ws.nav.current.set(null);
    await nextTick();
    expect(seen).toEqual([5, null]);
  });
});
