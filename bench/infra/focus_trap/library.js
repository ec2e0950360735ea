// The same with focus-trap (the package @vueuse/integrations' useFocusTrap wraps): the
// return-focus rule (never to a button) is kept as its setReturnFocus option.
import { createFocusTrap } from "focus-trap";
export function trap(box, { initialFocus, focusBox } = {}) {
  const returnsFocusTo = (element) =>
    element !== null && element !== document.body && !element.closest("button, a, summary, [role=button]");
  const focusTrap = createFocusTrap(box, {
    initialFocus: focusBox ? box : initialFocus ? () => box.querySelector(initialFocus) : undefined,
    fallbackFocus: box,
    escapeDeactivates: false,
    setReturnFocus: (previous) => (returnsFocusTo(previous) ? previous : false),
  });
  focusTrap.activate();
  return () => focusTrap.deactivate();
}
