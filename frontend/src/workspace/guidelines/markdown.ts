// A project's guidelines, Markdown rendered safely: markdown-it with raw HTML off (any tag in
// the text is shown as text, never parsed), its own link validation (no javascript: or data:
// links), and every link opening outside the app (a new tab, rel=noopener noreferrer) so
// that following one never leaves the workspace with unsaved edits.

import MarkdownIt from "markdown-it";

const md = new MarkdownIt({ html: false, linkify: true, typographer: false, breaks: false });

md.renderer.rules.link_open = (tokens, index, options, _env, self) => {
  const token = tokens[index]!;
  token.attrSet("target", "_blank");
  token.attrSet("rel", "noopener noreferrer");
  return self.renderToken(tokens, index, options);
};

export function renderMarkdown(text: string): string {
  return md.render(text);
}
