import { describe, expect, it } from "vitest";
import { paragraphRange, pieces } from "../../src/validation/context";
import { Decisions } from "../../src/validation/decisions";
import { chanceAgreement, lowKappaPair } from "../../src/validation/kappaNote";
import { defaultOrder, visitOrder } from "../../src/validation/order";
import { differs } from "../../src/validation/session";
import type {
  ValidationCluster,
  ValidationDocument,
  ValidationMention,
} from "../../src/validation/types";

const mention = (id: number, confidence: number | null, start = id): ValidationMention => ({
  id,
  document: 1,
  spans: [[start, start]],
  cluster: id % 2,
  confidence,
});

describe("the visiting order", () => {
  const scored = [mention(1, 0.9), mention(2, 0.1), mention(3, 0.5), mention(4, 0.3)];
  const clusters: ValidationCluster[] = [
    { id: 1, label: "odd", members: [1, 3] },
    { id: 0, label: "even", members: [2, 4] },
  ];

  it("is least confident first when confidences exist, else document order", () => {
    expect(defaultOrder(scored)).toBe("confidence");
    expect(visitOrder("confidence", scored, clusters)).toEqual([2, 4, 3, 1]);
    const plain = scored.map((m) => ({ ...m, confidence: null }));
    expect(defaultOrder(plain)).toBe("document");
    expect(visitOrder("document", plain, clusters)).toEqual([1, 2, 3, 4]);
  });

  it("goes cluster by cluster, clusters in the order of their first member", () => {
    expect(visitOrder("cluster", scored, clusters)).toEqual([3, 1, 2, 4]);
  });
});

describe("decisions", () => {
  it("show a proposal at once and keep the server's answer once confirmed", () => {
    const d = new Decisions({});
    d.propose(5, { decision: "accepted", reason: null, note: "" }, 1);
    expect(d.get(5)?.decision).toBe("accepted");
    d.applied(
      [
        {
          e: "validation_set",
          mention: 5,
          old: null,
          new: { decision: "accepted", reason: null, note: "" },
        },
      ],
      1,
    );
    expect(d.confirmed.get(5)?.decision).toBe("accepted");
    expect(d.count([5, 6])).toEqual({ decided: 1, rejected: 0 });
  });

  it("forget a refused proposal", () => {
    const d = new Decisions({});
    d.propose(5, { decision: "rejected", reason: "trigger", note: "" }, 7);
    d.refused(7);
    expect(d.get(5)).toBeUndefined();
  });

  it("refuse an effect that does not fit what the server confirmed", () => {
    const d = new Decisions({ "5": { decision: "accepted", reason: null, note: "" } });
    expect(() => d.applied([{ e: "validation_set", mention: 5, old: null, new: null }])).toThrow();
  });
});

describe("the adjudicator's filter", () => {
  it("keeps the mentions the validators decided differently", () => {
    const others = {
      ann: {
        "1": { decision: "accepted" as const, reason: null, note: "" },
        "2": { decision: "accepted" as const, reason: null, note: "" },
      },
      bob: {
        "1": { decision: "rejected" as const, reason: "trigger", note: "" },
        "2": { decision: "accepted" as const, reason: null, note: "" },
      },
    };
    expect(differs(others, 1)).toBe(true);
    expect(differs(others, 2)).toBe(false);
  });
});

describe("the paragraph", () => {
  it("shows a short document whole and marks the mention", () => {
    const doc = {
      id: 1,
      position: 0,
      doc_id: "",
      tokens: ["a", "b", "c", "d"],
      sentences: [],
      metadata: {},
    } as ValidationDocument;
    expect(paragraphRange(doc, [[1, 2]])).toEqual([0, 4]);
    expect(pieces(doc.tokens, [[1, 2]], 0, 4)).toEqual([
      { text: "a", mark: false },
      { text: "b c", mark: true },
      { text: "d", mark: false },
    ]);
  });

  it("cuts a long document to the sentences around the mention", () => {
    const tokens = Array.from({ length: 400 }, (_, i) => `w${i}`);
    const sentences = Array.from({ length: 40 }, (_, i) => [i * 10, i * 10 + 10]);
    const doc = {
      id: 1,
      position: 0,
      doc_id: "",
      tokens,
      sentences,
      metadata: {},
    } as ValidationDocument;
    expect(paragraphRange(doc, [[205, 206]])).toEqual([190, 220]);
  });
});

describe("the kappa note", () => {
  it("explains a kappa near zero beside high agreement with the chance agreement behind it", () => {
    const pairs = [
      { validators: ["ann", "bob"], agreement: 0.75, kappa: 0.1 },
      { validators: ["ann", "cy"], agreement: 0.918, kappa: -0.03 },
      { validators: ["bob", "cy"], agreement: 0.95, kappa: 0.8 },
    ];
    const pair = lowKappaPair(pairs)!;
    expect(pair.validators).toEqual(["ann", "cy"]);
    // kappa = (p_o - p_e) / (1 - p_e), so p_e = (p_o - kappa) / (1 - kappa)
    const pe = chanceAgreement(pair);
    expect((pair.agreement - pe) / (1 - pe)).toBeCloseTo(-0.03, 10);
    expect(pe).toBeGreaterThan(0.9);
    expect(
      lowKappaPair([pairs[2]!, { validators: ["x", "y"], agreement: 0.9, kappa: null }]),
    ).toBeNull();
  });
});
