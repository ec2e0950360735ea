// The hierarchy F1 named after SciCo is its released closure count; the raw edges count is
// never called SciCo's: the agreement page, annotator-vs-gold and onboarding.
import { describe, expect, it } from "vitest";
import { metricInfo } from "../../src/admin/agreement/metrics";
import { vsGoldLabel } from "../../src/admin/agreement/vsGold";
import { METRIC_LABELS } from "../../src/onboarding/differences";

describe("the hierarchy F1 labels", () => {
  it("name the closure count SciCo's and the raw count not SciCo's, everywhere", () => {
    const closure = [metricInfo("hierarchy_f1").label, vsGoldLabel("hierarchy"), METRIC_LABELS.hierarchy_f1];
    const raw = [metricInfo("hierarchy_f1_raw").label, vsGoldLabel("hierarchy_raw"), METRIC_LABELS.hierarchy_f1_raw];

    for (const label of closure) expect(label).toMatch(/\(SciCo, closure\)$/);
    for (const label of raw) expect(label).toMatch(/raw edges \(not SciCo's\)$/);
  });
});
