// What a VirtualList exposes to its parent (template refs are typed with it).
export interface VirtualListApi {
  scrollToIndex(index: number, align?: "start" | "center"): void;
  ensureVisible(index: number): void;
  scrollBy(dy: number): void;
  readonly element: HTMLElement | null;
}
