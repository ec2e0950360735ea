import { describe, expect, it } from "vitest";
import type { MentionSuggestionItem, Span } from "../../src/api/types";
import {
  anchorMention,
  hasMentionAt,
  proposalIsOpen,
  walkPosition,
} from "../../src/workspace/mentionSuggestions";

const proposal = (spans: Span[], suggestion = 7): MentionSuggestionItem => ({
  suggestion,
  score: 0.9,
  uncertainty: 0.2,
  operation: { op: "add_mention", document: 1, spans },
  decision: null,
  valid: true,
  reason: "",
  document: 1,
  spans,
});
const mention = (id: number, spans: Span[], rejected = false) => ({
  id,
  document: 1,
  spans,
  rejected,
});

describe("proposed mentions", () => {
  it("is open until an active mention has exactly its spans", () => {
    const item = proposal([
      [3, 3],
      [6, 7],
    ]);
    expect(proposalIsOpen(item, undefined, [mention(1, [[3, 3]])])).toBe(true);
    expect(
      proposalIsOpen(item, undefined, [
        mention(1, [
          [3, 3],
          [6, 7],
        ]),
      ]),
    ).toBe(false);
    expect(
      proposalIsOpen(item, undefined, [
        mention(
          1,
          [
            [3, 3],
            [6, 7],
          ],
          true,
        ),
      ]),
    ).toBe(true);
  });

  it("is closed once accepted, even before the mention arrives", () => {
    expect(proposalIsOpen(proposal([[2, 2]]), "accepted", [])).toBe(false);
    expect(proposalIsOpen(proposal([[2, 2]]), "rejected", [])).toBe(true);
  });

  it("sits by the mention before it in its document, else the first one", () => {
    const mentions = [mention(1, [[0, 1]]), mention(2, [[5, 6]]), mention(3, [[9, 9]])];
    expect(anchorMention(proposal([[7, 7]]), mentions)).toBe(2);
    expect(anchorMention(proposal([[0, 0]]), [mention(2, [[5, 6]]), mention(3, [[2, 3]])])).toBe(3);
    expect(anchorMention(proposal([[7, 7]]), [])).toBeNull();
    expect(hasMentionAt(undefined, [[1, 1]])).toBe(false);
  });

  it("falls half a place before the first mention that starts after it in reading order", () => {
    const keys = [
      [0, 2],
      [0, 8],
      [1, 0],
      [1, 4],
    ] as const;
    expect(walkPosition(0, 5, keys)).toBe(0.5);
    expect(walkPosition(0, 0, keys)).toBe(-0.5);
    expect(walkPosition(1, 9, keys)).toBe(3.5);
    expect(walkPosition(0, 8, keys)).toBe(1.5);
    expect(walkPosition(2, 0, [])).toBe(-0.5);
  });
});
