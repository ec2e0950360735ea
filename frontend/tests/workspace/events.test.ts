// @vitest-environment happy-dom
import { mount } from "@vue/test-utils";
import { describe, expect, it, vi } from "vitest";
import { defineComponent, h } from "vue";
import {
  createEmitter,
  createWorkspaceEvents,
  onWorkspaceEvent,
  WORKSPACE_EVENTS,
} from "../../src/workspace/events";

interface TestEvents {
  saved: number;
  ping: void;
}

describe("event emitter", () => {
  it("calls every handler of an event with its payload", () => {
    const events = createEmitter<TestEvents>();
    const first = vi.fn();
    const second = vi.fn();
    events.on("saved", first);
    events.on("saved", second);
    events.emit("saved", 7);
    expect(first).toHaveBeenCalledWith(7);
    expect(second).toHaveBeenCalledWith(7);
  });

  it("does not call the handlers of other events", () => {
    const events = createEmitter<TestEvents>();
    const onSaved = vi.fn();
    events.on("saved", onSaved);
    events.emit("ping");
    expect(onSaved).not.toHaveBeenCalled();
  });

  it("stops calling a handler once it unsubscribed", () => {
    const events = createEmitter<TestEvents>();
    const onPing = vi.fn();
    const off = events.on("ping", onPing);
    events.emit("ping");
    off();
    events.emit("ping");
    expect(onPing).toHaveBeenCalledTimes(1);
  });

  it("still calls the next handler when one unsubscribes while the event is delivered", () => {
    const events = createEmitter<TestEvents>();
    const second = vi.fn();
    const off = events.on("ping", () => off());
    events.on("ping", second);
    events.emit("ping");
    expect(second).toHaveBeenCalledTimes(1);
  });

  it("checks each event's payload when type checking (vue-tsc)", () => {
    const events = createEmitter<TestEvents>();
    const wrongCalls = () => {
      // @ts-expect-error: "saved" carries a number
      events.emit("saved");
      // @ts-expect-error: "ping" carries nothing
      events.emit("ping", 1);
      // @ts-expect-error: no such event
      events.on("unknown", () => {});
    };
    expect(wrongCalls).toBeTypeOf("function");
  });

  it("emits with no handler without complaint", () => {
    expect(() => createEmitter<TestEvents>().emit("saved", 1)).not.toThrow();
  });
});

describe("onWorkspaceEvent", () => {
  function mountListener(handler: () => void) {
    const events = createWorkspaceEvents();
    const Listener = defineComponent({
      setup() {
        onWorkspaceEvent("focus-tree", handler);
        return () => h("div");
      },
    });
    const wrapper = mount(Listener, {
      global: { provide: { [WORKSPACE_EVENTS as symbol]: events } },
    });
    return { events, wrapper };
  }

  it("handles the event while the component is mounted", () => {
    const handler = vi.fn();
    const { events } = mountListener(handler);
    events.emit("focus-tree");
    events.emit("focus-bank");
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("unsubscribes when the component unmounts", () => {
    const handler = vi.fn();
    const { events, wrapper } = mountListener(handler);
    wrapper.unmount();
    events.emit("focus-tree");
    expect(handler).not.toHaveBeenCalled();
  });
});
