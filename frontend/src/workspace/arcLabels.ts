// Where the type labels of the drawn arcs go so that none covers a word or another label: each
// label tries points along its own arc, nearest the middle first; one that fits nowhere is not
// drawn (its arc still is, in its type's colour, and hovering or selecting the link shows it).

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LabelRequest {
  key: string;
  width: number;
  height: number;
  /** Centres to try, best first. */
  candidates: readonly { x: number; y: number }[];
}

const ROW = 24; // px: the height of one bucket of the obstacle index

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Boxes bucketed by rows of ROW px, so a label is compared only with its neighbours. */
class BoxIndex {
  private readonly rows = new Map<number, Box[]>();
  add(box: Box): void {
    for (let r = Math.floor(box.y / ROW); r <= Math.floor((box.y + box.height) / ROW); r++) {
      const row = this.rows.get(r);
      if (row) row.push(box);
      else this.rows.set(r, [box]);
    }
  }
  hits(box: Box): boolean {
    for (let r = Math.floor(box.y / ROW); r <= Math.floor((box.y + box.height) / ROW); r++) {
      for (const other of this.rows.get(r) ?? []) if (overlaps(box, other)) return true;
    }
    return false;
  }
}

/** Top-left corner of each label that fits (in the order given: the first are served first),
 * or null for one that fits nowhere. `bounds`: labels stay inside it (the drawing area). */
export function placeLabels(
  labels: readonly LabelRequest[],
  obstacles: readonly Box[],
  bounds: Box,
): Map<string, { x: number; y: number } | null> {
  const index = new BoxIndex();
  for (const box of obstacles) index.add(box);
  const out = new Map<string, { x: number; y: number } | null>();
  for (const label of labels) {
    let placed: Box | null = null;
    for (const c of label.candidates) {
      const box = {
        x: c.x - label.width / 2,
        y: c.y - label.height / 2,
        width: label.width,
        height: label.height,
      };
      const inside =
        box.x >= bounds.x &&
        box.y >= bounds.y &&
        box.x + box.width <= bounds.x + bounds.width &&
        box.y + box.height <= bounds.y + bounds.height;
      if (inside && !index.hits(box)) {
        placed = box;
        break;
      }
    }
    if (placed) index.add(placed);
    out.set(label.key, placed && { x: placed.x, y: placed.y });
  }
  return out;
}

/** Points of the cubic Bézier p0..p3 at the given parameters. */
export function bezierPoints(
  p: readonly [
    { x: number; y: number },
    { x: number; y: number },
    { x: number; y: number },
    { x: number; y: number },
  ],
  ts: readonly number[],
): { x: number; y: number }[] {
  return ts.map((t) => {
    const u = 1 - t;
    const a = u * u * u,
      b = 3 * u * u * t,
      c = 3 * u * t * t,
      d = t * t * t;
    return {
      x: a * p[0].x + b * p[1].x + c * p[2].x + d * p[3].x,
      y: a * p[0].y + b * p[1].y + c * p[2].y + d * p[3].y,
    };
  });
}

/** Arc parameters to try, the middle first, then outwards. */
export const LABEL_TS = [0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82, 0.1, 0.9];
