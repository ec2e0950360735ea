"""The focus ring stands out at least 3:1 from every background it meets (WCAG 1.4.11), read
from the computed styles of each control that Tab reaches: the workspace (header, text,
panels) and the assignments page with its dark action bar."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from annotation.models import Project
from tests.e2e.data import apply_ops, mention_ids
from tests.e2e.workspace import open_workspace
from tests.factories import AdminFactory, UserFactory, assign, make_topic

# The focused element's outline and the background its ring is drawn on: the parent's (an
# outline outside the box, offset >= 0) or its own (drawn inside), each composited from the
# first opaque ancestor up; then the WCAG contrast ratio between the two.
RING = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const rgba = (text) => {
    const n = text.match(/[\\d.]+/g).map(Number);
    return { r: n[0], g: n[1], b: n[2], a: n.length > 3 ? n[3] : 1 };
  };
  const background = (node) => {
    const layers = [];
    for (let e = node; e; e = e.parentElement) {
      const c = rgba(getComputedStyle(e).backgroundColor);
      if (c.a > 0) layers.push(c);
      if (c.a >= 1) break;
    }
    let out = { r: 255, g: 255, b: 255 };
    for (const c of layers.reverse()) {
      out = { r: c.r * c.a + out.r * (1 - c.a), g: c.g * c.a + out.g * (1 - c.a),
              b: c.b * c.a + out.b * (1 - c.a) };
    }
    return out;
  };
  const luminance = ({ r, g, b }) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const style = getComputedStyle(el);
  const name = `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}` +
    ` "${(el.getAttribute("aria-label") || el.textContent || "").trim().slice(0, 30)}"`;
  if (style.outlineStyle === "none" || parseFloat(style.outlineWidth) < 2) {
    return { name, ratio: 0, ring: "none", dark: false };
  }
  const ring = rgba(style.outlineColor);
  const behind = background(parseFloat(style.outlineOffset) >= 0 ? el.parentElement : el);
  const [hi, lo] = [luminance(ring), luminance(behind)].sort((x, y) => y - x);
  const dark = el.closest(".app-header, .action-bar") !== null;
  return { name, ratio: (hi + 0.05) / (lo + 0.05), ring: style.outlineColor, dark };
}"""


def tab_through(page: Page, presses: int) -> list[dict]:
    """The ring of every control Tab reaches, in `presses` presses (each control once)."""
    seen: dict[str, dict] = {}
    for _ in range(presses):
        page.keyboard.press("Tab")
        ring = page.evaluate(RING)
        if ring is not None:
            seen.setdefault(ring["name"], ring)
    return list(seen.values())


def faint(rings: list[dict]) -> list[str]:
    return [f"{r['name']}: {r['ratio']:.2f}:1 ({r['ring']})" for r in rings if r["ratio"] < 3]


def test_the_focus_ring_is_3_to_1_on_the_workspace_and_admin_backgrounds(new_page, artifacts):
    project = Project.objects.create(name="Focus ring", hierarchy=True)
    topic = make_topic(project, external_id="topic-ring")
    user = UserFactory()
    assignment, stored = assign(topic, user)
    ids = mention_ids(topic)
    apply_ops(stored, user, [{"op": "assign", "mention": ids[0], "cluster": None}])

    page = open_workspace(new_page(user), assignment.pk)
    rings = tab_through(page, 40)
    # The dark header, the text, the panels' controls on white and grey.
    assert len(rings) > 10, rings
    assert any(r["dark"] for r in rings), rings
    page.get_by_role("button", name="Keys ?").focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    page.screenshot(path=str(artifacts / "focus-ring-workspace.png"), clip=_header(page))
    assert faint(rings) == []

    admin = new_page(AdminFactory())
    admin.goto(f"/manage/projects/{project.pk}/assignments")
    cell = admin.locator(f"button[data-assignment='{assignment.pk}']")
    cell.click()
    bar = admin.locator(".action-bar")
    expect(bar).to_be_visible()
    admin_rings = tab_through(admin, 60)
    assert any(r["dark"] for r in admin_rings), admin_rings
    bar.get_by_role("button", name="Clear selection").focus()
    admin.keyboard.press("Shift+Tab")
    admin.keyboard.press("Tab")
    admin.screenshot(path=str(artifacts / "focus-ring-action-bar.png"))
    assert faint(admin_rings) == []


def _header(page: Page) -> dict:
    box = page.locator(".ws-header").bounding_box()
    assert box is not None
    return {"x": 0, "y": 0, "width": 1440, "height": box["y"] + box["height"] + 8}
