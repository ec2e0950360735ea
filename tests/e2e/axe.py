"""axe-core in the browser tests, without weakening the app's Content-Security-Policy.

axe is evaluated into the page through Playwright's `page.evaluate`, which is the DevTools
protocol's Runtime.evaluate: the browser runs it as the debugger would, outside the page's
policy (no `unsafe-eval`, no inline script, no `bypass_csp` context). The page keeps the policy
the server sent; tests/e2e/test_content_security_policy.py checks that policy stays strict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Page

REPO = Path(__file__).resolve().parents[2]
AXE_SOURCE = REPO / "frontend" / "node_modules" / "axe-core" / "axe.min.js"

# WCAG 2.2 A and AA, and axe's best practices (heading order, one main, an h1, landmarks).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
BLOCKING = ("serious", "critical")

RUN = """async (tags) => {
  const result = await window.axe.run(document, {
    runOnly: { type: "tag", values: tags },
    resultTypes: ["violations"],
  });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
    nodes: v.nodes.length,
  }));
}"""


@dataclass
class Violation:
    id: str
    impact: str
    help: str
    nodes: int
    targets: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.impact} {self.id} ({self.nodes}x: {self.help}) at {self.targets}"


def axe_violations(page: Page) -> list[Violation]:
    """Every violation axe finds on the page as it is now (WCAG 2.2 AA and best practices)."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE_SOURCE.read_text())
    return [Violation(**v) for v in page.evaluate(RUN, TAGS)]


def blocking(violations: list[Violation]) -> list[Violation]:
    return [v for v in violations if v.impact in BLOCKING]
