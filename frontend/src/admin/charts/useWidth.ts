// The width of an element, kept up to date: charts draw at their real width, so text stays
// at its own size instead of being scaled with the drawing.

import { onBeforeUnmount, onMounted, ref, type Ref } from "vue";

export function useWidth(element: Ref<HTMLElement | null>, fallback: number): Ref<number> {
  const width = ref(fallback);
  let observer: ResizeObserver | null = null;
  onMounted(() => {
    const el = element.value;
    if (!el) return;
    width.value = el.clientWidth || fallback;
    observer = new ResizeObserver(() => {
      if (el.clientWidth) width.value = el.clientWidth;
    });
    observer.observe(el);
  });
  onBeforeUnmount(() => observer?.disconnect());
  return width;
}
