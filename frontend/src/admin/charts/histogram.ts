// Binning of topic scores for the distribution chart.

export interface Bin {
  x0: number;
  x1: number;
  count: number;
}

export interface Histogram {
  bins: Bin[];
  /** Scores that are undefined (null): listed apart, never binned. */
  undefinedCount: number;
}

/** `bins` equal-width bins over [min, max]; each bin holds [x0, x1) except the last, which
 * also holds max. Values outside the range go to the first or last bin. */
export function histogram(
  values: readonly (number | null)[],
  min: number,
  max: number,
  bins: number,
): Histogram {
  const n = Math.max(1, Math.floor(bins));
  const width = (max - min) / n;
  const out: Bin[] = Array.from({ length: n }, (_, i) => ({
    x0: min + i * width,
    x1: i === n - 1 ? max : min + (i + 1) * width,
    count: 0,
  }));
  let undefinedCount = 0;
  for (const value of values) {
    if (value === null || Number.isNaN(value)) {
      undefinedCount += 1;
      continue;
    }
    const index = width > 0 ? Math.floor((value - min) / width + 1e-9) : 0;
    out[Math.max(0, Math.min(n - 1, index))]!.count += 1;
  }
  return { bins: out, undefinedCount };
}
