// When a validation report's kappa needs a word: validators who agree on most mentions but
// whose kappa is near zero. Kappa = (p_o - p_e) / (1 - p_e) removes the agreement expected by
// chance (p_e) from the observed one (p_o); when nearly every mention is accepted, p_e is
// itself close to 1, so a handful of differing rejections decides kappa (the "kappa paradox"
// of rare categories). A reader saw -0.03 beside 91.8 % and asked why.

export interface PairAgreement {
  validators: readonly string[];
  agreement?: number | null;
  kappa?: number | null;
}

/** Agreement at least this high with kappa below LOW_KAPPA reads as a contradiction. */
export const HIGH_AGREEMENT = 0.8;
export const LOW_KAPPA = 0.4;

/** The pair whose agreement and kappa differ most (the first such), or null. */
export function lowKappaPair<P extends PairAgreement>(pairs: readonly P[]): (P & { agreement: number; kappa: number }) | null {
  let worst: (P & { agreement: number; kappa: number }) | null = null;
  for (const pair of pairs) {
    const { agreement, kappa } = pair;
    if (agreement === null || agreement === undefined || kappa === null || kappa === undefined) continue;
    if (agreement < HIGH_AGREEMENT || kappa >= LOW_KAPPA) continue;
    if (worst === null || agreement - kappa > worst.agreement - worst.kappa) worst = { ...pair, agreement, kappa };
  }
  return worst;
}

/** p_e, the agreement expected by chance, from the observed agreement and kappa. */
export function chanceAgreement(pair: { agreement: number; kappa: number }): number {
  return pair.kappa === 1 ? 1 : (pair.agreement - pair.kappa) / (1 - pair.kappa);
}
