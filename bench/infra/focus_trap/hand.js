// The trap of frontend/src/components/ModalFrame.vue, as plain functions (what the component
// adds to the bundle besides its template).
const FOCUSABLE = "input, textarea, button, [tabindex]";
export function trap(box, { initialFocus, focusBox } = {}) {
  const previous = document.activeElement;
  const startFocus = () => (focusBox ? box : box.querySelector(initialFocus ?? FOCUSABLE) ?? box);
  const keepFocus = (event) => {
    if (event.target instanceof Node && !box.contains(event.target)) startFocus()?.focus();
  };
  const returnsFocusTo = (element) =>
    element !== null && element !== document.body && !element.closest("button, a, summary, [role=button]");
  document.addEventListener("focusin", keepFocus);
  startFocus()?.focus();
  return () => {
    document.removeEventListener("focusin", keepFocus);
    if (previous && document.contains(previous) && returnsFocusTo(previous)) previous.focus();
    else document.activeElement?.blur();
  };
}
