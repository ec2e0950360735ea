// The hand-written parts of src/api/types.ts agree with the generated schema types. These are
// type assertions: `npm run build` (vue-tsc) fails on a mismatch.
import { describe, expectTypeOf, it } from "vitest";
import type { components } from "../../src/api/schema";
import type { AnnotationPayload, LINK_TYPES, LinkType } from "../../src/api/types";

type Schemas = components["schemas"];

describe("the API types", () => {
  it("offer every link type the server knows, and only those", () => {
    expectTypeOf<(typeof LINK_TYPES)[number]>().toEqualTypeOf<LinkType>();
    expectTypeOf<LinkType>().toEqualTypeOf<Schemas["LinkType"]>();
  });

  it("read a link triple as one of the schema's link parts each", () => {
    expectTypeOf<AnnotationPayload["links"][number][number]>().toExtend<
      Schemas["AnnotationPayload"]["links"][number][number]
    >();
  });

  it("narrow an effect and an operation by their names", () => {
    expectTypeOf<Extract<Schemas["Effect"], { e: "cluster_created" }>>().toEqualTypeOf<
      Schemas["ClusterCreatedEffect"]
    >();
    expectTypeOf<Extract<Schemas["Operation"], { op: "assign" }>>().toEqualTypeOf<
      Schemas["AssignOperation"]
    >();
  });
});
