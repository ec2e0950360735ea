// The focus of a modal dialog (WCAG 2.4.3, 2.1.2): it takes the focus when it opens, Tab and
// Shift+Tab go round its own controls, and when it closes the focus goes back to what opened it.
//
// One exception, in the annotators' workspaces: there SPACE and Enter are the workspace's keys,
// and a focused button would take them (SPACE, SPACE once reopened Submit and submitted). So
// when the opener is a button or link, or nothing (a key opened the dialog), the focus goes to
// the page's safe element, marked `data-focus-return` (the documents' scroller): it is
// focusable, has no action of its own, and leaves every key to the workspace.

import { nextTick, onBeforeUnmount, onMounted, type Ref } from "vue";

const FOCUSABLE = [
  "a[href]",
  "button:not([disabled])",
  "input:not([disabled])",
  "select:not([disabled])",
  "textarea:not([disabled])",
  '[tabindex]:not([tabindex="-1"])',
].join(", ");

export function focusables(box: HTMLElement): HTMLElement[] {
  return [...box.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (e) => e.getClientRects().length > 0,
  );
}

/** Tab from the last control goes to the first, Shift+Tab from the first to the last. */
export function trapTab(box: HTMLElement, event: KeyboardEvent): void {
  if (event.key !== "Tab") return;
  const items = focusables(box);
  const first = items[0];
  const last = items[items.length - 1];
  const active = document.activeElement;
  if (!first || !last) {
    event.preventDefault();
    box.focus();
  } else if (event.shiftKey && (active === first || active === box || !box.contains(active))) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !box.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

const pressable = (element: Element) =>
  element.closest("button, a, summary, [role=button]") !== null;

/** Where the focus goes when a dialog opened from `opener` closes (null: nowhere). */
export function returnTarget(
  opener: Element | null,
  { safe }: { safe: boolean },
): HTMLElement | null {
  const live =
    opener instanceof HTMLElement && opener !== document.body && document.contains(opener);
  if (live && !(safe && pressable(opener))) return opener;
  return document.querySelector<HTMLElement>("[data-focus-return]");
}

/**
 * A modal's focus: `box` takes it on mount (`first` picks the control, else the first one),
 * Tab stays in it, and on unmount it goes back (see returnTarget; `safe` in the workspaces).
 */
export function useModalFocus(
  box: Ref<HTMLElement | null>,
  options: { safe: boolean; first?: () => HTMLElement | null | undefined },
): void {
  const opener = document.activeElement;
  const start = () => {
    const el = box.value;
    if (el) (options.first?.() ?? focusables(el)[0] ?? el).focus();
  };
  const onKey = (event: KeyboardEvent) => {
    if (box.value) trapTab(box.value, event);
  };
  // A click on the page behind (or a script) must not take the focus out while it is open.
  const onFocusIn = (event: FocusEvent) => {
    if (box.value && event.target instanceof Node && !box.value.contains(event.target)) start();
  };
  onMounted(() => {
    document.addEventListener("keydown", onKey, true);
    document.addEventListener("focusin", onFocusIn);
    void nextTick(() => {
      if (!box.value?.contains(document.activeElement)) start();
    });
  });
  onBeforeUnmount(() => {
    document.removeEventListener("keydown", onKey, true);
    document.removeEventListener("focusin", onFocusIn);
    const target = returnTarget(opener, { safe: options.safe });
    if (target) target.focus();
    else (document.activeElement as HTMLElement | null)?.blur();
  });
}
