// @vitest-environment happy-dom
// The validation section labels each hourly rate: per active hour (ours, pauses capped) and
// per elapsed hour (WEC's "valid mentions per hour"), side by side.
import { mount } from "@vue/test-utils";
import { describe, expect, it } from "vitest";
import type { components } from "../../src/api/schema";
import ValidationMeasures from "../../src/components/validation/ValidationMeasures.vue";

type Measures = components["schemas"]["ValidationMeasures"];

const measures: Measures = {
  reasons: [],
  idle_cap_seconds: 300,
  consolidated_topics: 0,
  validators: [
    {
      validator: "ann",
      topics: 1,
      decided: 7,
      accepted: 5,
      rejected: 2,
      acceptance_rate: 5 / 7,
      by_reason: {},
      active_seconds: 350,
      per_hour: 72,
      accepted_per_hour: (5 * 3600) / 350,
      elapsed_seconds: 3650,
      per_elapsed_hour: (7 * 3600) / 3650,
      accepted_per_elapsed_hour: (5 * 3600) / 3650,
      precision: null,
      recall: null,
      f1: null,
      compared: 0,
      kappa_consolidated: null,
    },
  ],
  pairs: [],
  kappa: null,
};

describe("the validation measures", () => {
  it("show the active-time and the elapsed-time rate, each labelled", () => {
    const wrapper = mount(ValidationMeasures, { props: { measures } });
    const headers = wrapper.findAll("table.validators th").map((th) => th.text());

    expect(headers).toContain("Valid / active h");
    expect(headers).toContain("Valid / elapsed h (WEC)");
    expect(wrapper.get("[data-testid=accepted-per-hour]").text()).toBe("51");
    expect(wrapper.get("[data-testid=accepted-per-elapsed-hour]").text()).toBe("5");
  });
});
