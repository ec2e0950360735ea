// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/workspace/guidelines/markdown";
import {
  guidelinesSeen,
  markGuidelinesSeen,
  markTourSeen,
  tourSeen,
} from "../../src/workspace/guidelines/seen";

describe("guidelines Markdown", () => {
  it("renders headings, emphasis and lists", () => {
    const html = renderMarkdown("# Rules\n\n**Merge** acronyms:\n\n- CNN\n- BERT");
    expect(html).toContain("<h1>Rules</h1>");
    expect(html).toContain("<strong>Merge</strong>");
    expect(html).toContain("<li>CNN</li>");
  });

  it("shows raw HTML as text, never as markup", () => {
    const html = renderMarkdown('<script>alert(1)</script><img src=x onerror="alert(2)">');
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;script&gt;");
  });

  it("opens links outside the app, and refuses javascript: links", () => {
    const html = renderMarkdown(
      "[SciCo](https://arxiv.org/abs/2104.08809) and [bad](javascript:alert(1))",
    );
    expect(html).toContain(
      '<a href="https://arxiv.org/abs/2104.08809" target="_blank" rel="noopener noreferrer">SciCo</a>',
    );
    expect(html).not.toContain('href="javascript:');
  });
});

describe("guidelines seen", () => {
  it("is remembered per user and project", () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    } as unknown as Storage;
    expect(guidelinesSeen(1, 7, storage)).toBe(false);
    markGuidelinesSeen(1, 7, storage);
    expect(guidelinesSeen(1, 7, storage)).toBe(true);
    expect(guidelinesSeen(1, 8, storage)).toBe(false);
    expect(guidelinesSeen(2, 7, storage)).toBe(false);
    expect(tourSeen(1, 7, storage)).toBe(false); // the tour is remembered apart
    markTourSeen(1, 7, storage);
    expect(tourSeen(1, 7, storage)).toBe(true);
  });
});
