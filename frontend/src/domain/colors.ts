// A stable colour per cluster id: golden-angle hues, so neighbouring ids differ clearly and a
// cluster keeps its colour across reloads and tabs.

export function clusterHue(id: number): number {
  return Math.round((Math.abs(id) * 137.508) % 360);
}

const LIGHTNESS = [87, 80, 91];

export function clusterColor(id: number): { background: string; border: string } {
  const hue = clusterHue(id);
  const light = LIGHTNESS[Math.abs(id) % LIGHTNESS.length]!;
  return { background: `hsl(${hue} 75% ${light}%)`, border: `hsl(${hue} 55% ${light - 50}%)` };
}

export const LINK_COLORS: Record<string, string> = {
  COREFERENCE: "#1f5fbf",
  TRANSFORMED: "#8a2be2",
  REACTION_ASSOCIATED: "#c25400",
  WORK_UP: "#1b7f3a",
  CONTAINED: "#8b5a2b",
};

export const LINK_SHORT: Record<string, string> = {
  COREFERENCE: "COREF",
  TRANSFORMED: "TRANS",
  REACTION_ASSOCIATED: "REACT",
  WORK_UP: "WORKUP",
  CONTAINED: "CONT",
};
