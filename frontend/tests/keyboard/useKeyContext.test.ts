// @vitest-environment happy-dom
import { mount } from "@vue/test-utils";
import { describe, expect, it, vi } from "vitest";
import { defineComponent, h, nextTick, ref, type Ref } from "vue";
import { KeyDispatcher } from "../../src/keyboard/dispatcher";
import { KEYMAP, type Scheme } from "../../src/keyboard/keymap";
import {
  KEY_DISPATCHER,
  type KeyContextOptions,
  type KeyHandlers,
  useKeyContext,
} from "../../src/keyboard/useKeyContext";

const SCHEMES: ReadonlySet<Scheme> = new Set(["any", "hierarchy", "mentions", "spans"]);
const escape = { key: "Escape" };

function mountWithKeys(
  handlers: KeyHandlers,
  options: Omit<KeyContextOptions, "keys">,
  keys = new KeyDispatcher(KEYMAP, () => SCHEMES),
) {
  const Dialog = defineComponent({
    setup() {
      useKeyContext(handlers, options);
      return () => h("div");
    },
  });
  const wrapper = mount(Dialog, { global: { provide: { [KEY_DISPATCHER as symbol]: keys } } });
  return { keys, wrapper };
}

describe("useKeyContext", () => {
  it("enters its context while the component is mounted and leaves it on unmount", () => {
    const { keys, wrapper } = mountWithKeys({ dialogCancel: () => {} }, { context: "dialog" });
    expect(keys.contextsFor(null)).toEqual(["dialog"]);
    wrapper.unmount();
    expect(keys.contextsFor(null)).toEqual(["workspace"]);
    expect(keys.hasModal()).toBe(false);
  });

  it("registers the handlers while the component is mounted and removes them on unmount", () => {
    const cancel = vi.fn();
    const { keys, wrapper } = mountWithKeys({ dialogCancel: cancel }, { context: "dialog" });
    expect(keys.handle(escape)).toBe(true);
    wrapper.unmount();
    expect(keys.handle(escape)).toBe(false);
    expect(cancel).toHaveBeenCalledTimes(1);
  });

  it("registers handlers without entering a context when it is given none", () => {
    const focusTree = vi.fn();
    const { keys } = mountWithKeys({ focusTree }, {});
    expect(keys.contextsFor(null)).toEqual(["workspace"]);
    keys.handle({ key: "t", code: "KeyT" });
    expect(focusTree).toHaveBeenCalledTimes(1);
  });

  it("enters the context only while it is active", async () => {
    const active: Ref<boolean> = ref(false);
    const cancel = vi.fn();
    const { keys, wrapper } = mountWithKeys(
      { selectionCancel: cancel },
      { context: "selection", active },
    );
    expect(keys.contextsFor(null)).toEqual(["workspace"]);
    active.value = true;
    await nextTick();
    expect(keys.contextsFor(null)).toEqual(["selection", "workspace"]);
    keys.handle(escape);
    expect(cancel).toHaveBeenCalledTimes(1);
    active.value = false;
    await nextTick();
    expect(keys.contextsFor(null)).toEqual(["workspace"]);
    active.value = true;
    await nextTick();
    wrapper.unmount();
    expect(keys.contextsFor(null)).toEqual(["workspace"]);
  });

  it("uses the dispatcher it is given over the provided one", () => {
    const own = new KeyDispatcher(KEYMAP, () => SCHEMES);
    const provided = new KeyDispatcher(KEYMAP, () => SCHEMES);
    const Host = defineComponent({
      setup() {
        useKeyContext({ dialogCancel: () => {} }, { context: "dialog", keys: own });
        return () => h("div");
      },
    });
    mount(Host, { global: { provide: { [KEY_DISPATCHER as symbol]: provided } } });
    expect(own.hasModal()).toBe(true);
    expect(provided.hasModal()).toBe(false);
  });
});
