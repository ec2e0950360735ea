// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import { returnTarget } from "../../src/components/modalFocus";
import { createNotices } from "../../src/workspace/stores/notices";

function page(): { button: HTMLButtonElement; field: HTMLInputElement; text: HTMLElement } {
  document.body.innerHTML = `<button>Submit…</button><input type="text"><div tabindex="0" data-focus-return></div>`;
  return {
    button: document.querySelector("button")!,
    field: document.querySelector("input")!,
    text: document.querySelector<HTMLElement>("[data-focus-return]")!,
  };
}

describe("where a closed dialog gives the focus back", () => {
  it("in a workspace, from a button to the safe element: SPACE must not press Submit… again", () => {
    const { button, text } = page();
    expect(returnTarget(button, { safe: true })).toBe(text);
  });

  it("in a workspace, to the text field it came from, and to the safe element from nowhere", () => {
    const { field, text } = page();
    expect(returnTarget(field, { safe: true })).toBe(field);
    expect(returnTarget(document.body, { safe: true })).toBe(text);
  });

  it("in the admin pages, to the button that opened it", () => {
    const { button } = page();
    expect(returnTarget(button, { safe: false })).toBe(button);
  });

  it("to the safe element when the opener has gone from the page", () => {
    const { button, text } = page();
    button.remove();
    expect(returnTarget(button, { safe: false })).toBe(text);
  });
});

describe("the announcer", () => {
  it("changes its text for the same words twice, so the live region speaks again", () => {
    const notices = createNotices();
    notices.announce("Done: assign it.");
    const first = notices.spoken.text;
    notices.announce("Done: assign it.");
    expect(first).toBe("Done: assign it.");
    expect(notices.spoken.text).not.toBe(first);
    expect(notices.spoken.text.trim()).toBe("Done: assign it.");
  });
});
