// Colours of the anaphora link types (cluster colours: ../workspace/clusterColors.ts).

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
