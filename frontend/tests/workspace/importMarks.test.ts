// @vitest-environment happy-dom
import { mount } from "@vue/test-utils";
import { describe, expect, it } from "vitest";
import ImportMarks from "../../src/workspace/ImportMarks.vue";

describe("the import marks", () => {
  it("list each entry of the file the workspace would refuse, where and why", () => {
    const marks = [
      {
        field: "Transformed[1]",
        message:
          "TRANSFORMED is one-to-one: the antecedent (tokens 45-47 'The reaction mixture') already has ...",
      },
      {
        field: "Coreference[0][0]",
        message: "the anaphor is empty (antecedent [[2, 3]] 'compound 38-g'); kept as released",
      },
    ];
    const wrapper = mount(ImportMarks, { props: { marks } });

    expect(wrapper.get("summary").text()).toContain(
      "2 entries the workspace would refuse, kept as released",
    );
    const items = wrapper.findAll("li").map((li) => li.text());
    expect(items).toEqual([
      `Transformed[1]: ${marks[0]!.message}`,
      `Coreference[0][0]: ${marks[1]!.message}`,
    ]);
  });
});
