// The split dialog's form: named shares (train 0.6, dev 0.15, test 0.25), a balance and a
// seed, checked here so that the manager reads what is wrong before anything is sent (the
// server checks the same: datasets/services/splits.py).

import type { components } from "../../api/schema";

export type SplitRequest = components["schemas"]["SplitRequestRequest"];
export type SplitOutcome = components["schemas"]["SplitOutcomePayload"];
export type Balance = NonNullable<SplitRequest["balance"]>;

export interface SplitPart {
  name: string;
  ratio: number | string;
}

export const defaultParts = (): SplitPart[] => [
  { name: "train", ratio: 0.6 },
  { name: "dev", ratio: 0.15 },
  { name: "test", ratio: 0.25 },
];

export const defaultBalance = (project: { anaphora: boolean }): Balance =>
  project.anaphora ? "links" : "clusters";

/** The request, or what is wrong with the form in the manager's words. */
export function splitRequest(
  parts: readonly SplitPart[],
  seed: number | string,
  balance: Balance,
  replace: boolean,
): { request: SplitRequest } | { error: string } {
  if (parts.length < 2) return { error: "A split needs at least two parts." };
  const names = parts.map((p) => p.name.trim());
  if (names.some((n) => !n)) return { error: "Every part needs a name." };
  if (new Set(names).size !== names.length) return { error: "The parts need different names." };
  const ratios = parts.map((p) => Number(p.ratio));
  if (ratios.some((r) => !Number.isFinite(r) || r <= 0))
    return { error: "Every share must be a number above 0." };
  const total = ratios.reduce((a, b) => a + b, 0);
  if (Math.abs(total - 1) > 1e-6)
    return { error: `The shares add up to ${Number(total.toFixed(6))}, not 1.` };
  const seedNumber = Number(seed);
  if (!Number.isInteger(seedNumber) || seedNumber < 0)
    return { error: "The seed is a whole number, 0 or more." };
  return { request: { names, ratios, seed: seedNumber, balance, replace } };
}

/** A deviation as the dialog shows it: a signed percentage of the total. */
export const signedPercent = (value: number | null): string =>
  value === null ? "–" : `${value >= 0 ? "+" : "−"}${Math.abs(value * 100).toFixed(1)}%`;
