// Linear scales, "nice" ticks and a colour ramp for the small SVG charts.

export type Scale = (value: number) => number;

export function linearScale(
  domain: readonly [number, number],
  range: readonly [number, number],
): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0 || 1;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

/** About `count` round tick values covering [min, max] (steps of 1, 2 or 5 x 10^n). */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!(max > min) || count < 1) return [min];
  const rough = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) ?? 10 * power;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step) {
    ticks.push(Math.round(v / step) * step);
  }
  return ticks.map((t) => Number(t.toPrecision(12)));
}

/** A light-to-dark blue ramp for t in [0, 1] (perceptually ordered, readable in grey). */
export function rampColor(t: number): string {
  const x = Math.max(0, Math.min(1, t));
  const lightness = 96 - x * 62;
  const saturation = 45 + x * 25;
  return `hsl(213 ${saturation.toFixed(0)}% ${lightness.toFixed(0)}%)`;
}

/** Text on a ramp colour: dark on the light end, white on the dark end. */
export function rampTextColor(t: number): string {
  return t > 0.55 ? "#ffffff" : "#1d2430";
}
