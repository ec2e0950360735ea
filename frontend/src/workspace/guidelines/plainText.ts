// Text out of HTML, without markdown-it: the practice tour needs only this, and the renderer
// (./markdown.ts) loads with the guidelines panel, not with the first page.

/** Text out of a snippet of HTML (CoRefi's tour steps hold a few spans), never parsed into
 * the page: a detached document has no scripts to run and nothing is inserted. */
export function plainText(html: string): string {
  const doc = new DOMParser().parseFromString(html, "text/html");
  return (doc.body.textContent ?? "").replace(/\s+/g, " ").trim();
}
