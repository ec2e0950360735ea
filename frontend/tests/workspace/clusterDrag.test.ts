import { describe, expect, it } from "vitest";
import { carriesCluster, droppedCluster, startClusterDrag } from "../../src/workspace/clusterDrag";

/** A DataTransfer as the browser gives it to drag handlers (jsdom has none). */
function dragEvent(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  const dataTransfer = {
    effectAllowed: "uninitialized",
    get types() {
      return [...data.keys()];
    },
    setData: (type: string, value: string) => data.set(type, value),
    getData: (type: string) => data.get(type) ?? "",
  };
  return { dataTransfer } as unknown as DragEvent;
}

describe("dragging a cluster onto the hierarchy", () => {
  it("carries the cluster from the drag source to the drop target, and its label as text", () => {
    const event = dragEvent();
    startClusterDrag(event, 42, "CRF taggers");
    expect(carriesCluster(event)).toBe(true);
    expect(droppedCluster(event)).toBe(42);
    expect(event.dataTransfer?.getData("text/plain")).toBe("CRF taggers");
    expect(event.dataTransfer?.effectAllowed).toBe("linkMove");
  });

  it("ignores drags of anything else, such as selected text", () => {
    const text = dragEvent({ "text/plain": "17" });
    expect(carriesCluster(text)).toBe(false);
    expect(droppedCluster(text)).toBeNull();
    expect(droppedCluster(dragEvent({ "application/x-cluster": "" }))).toBeNull();
  });
});
