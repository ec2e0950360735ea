// The one keydown listener of the workspace. It turns a key press into a command of the
// keymap (./keymap.ts) for the context the user is in, and calls the handler that the
// component owning that command registered.
//
// Context resolution: an open modal (picker, dialog) gets every key and nothing below it
// does. Otherwise the focused region (an element with data-key-context="tree" or "bank")
// comes first, then non-modal contexts pushed by components (a text selection), then the
// workspace.
//
// A read-only workspace (submitted, or someone else's under review) answers every key that
// would change the annotation at once, through `refuse`, instead of opening a dialog whose
// save is then refused.

import {
  type CommandId,
  type KeyBinding,
  type KeyContext,
  type KeyLike,
  type Scheme,
  keyString,
  lookup,
  MODAL_CONTEXTS,
} from "./keymap";

/** A handler returns false when it did not act (the key then keeps its default effect). */
export type KeyHandler = (event: KeyboardEvent | KeyLike) => boolean | void;

export interface DispatchTarget {
  tagName?: string;
  isContentEditable?: boolean;
  closest?: (selector: string) => { getAttribute(name: string): string | null } | null;
  type?: string;
}

const TEXT_INPUT_TYPES = new Set([
  "text",
  "search",
  "password",
  "email",
  "number",
  "url",
  "tel",
  "",
]);

function isTextField(target: DispatchTarget | null): boolean {
  if (!target || !target.tagName) return false;
  const tag = target.tagName.toUpperCase();
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag === "INPUT") return TEXT_INPUT_TYPES.has((target.type ?? "").toLowerCase());
  return target.isContentEditable === true;
}

function isActivatable(target: DispatchTarget | null): boolean {
  const tag = target?.tagName?.toUpperCase();
  return tag === "BUTTON" || tag === "A" || tag === "SUMMARY";
}

export interface ReadOnlyRule {
  /** Whether the annotation is read-only now. */
  readOnly: () => boolean;
  /** Tell the user why an editing key did nothing. */
  refuse: (binding: KeyBinding) => void;
}

export class KeyDispatcher {
  private readonly handlers = new Map<CommandId, KeyHandler[]>();
  private readonly stack: KeyContext[] = [];

  constructor(
    private readonly keymap: readonly KeyBinding[],
    private readonly schemes: () => ReadonlySet<Scheme>,
    private readonly readOnly?: ReadOnlyRule,
  ) {}

  /** Register handlers; returns the function that removes them again. */
  register(handlers: Partial<Record<CommandId, KeyHandler>>): () => void {
    const entries = Object.entries(handlers) as [CommandId, KeyHandler][];
    for (const [command, handler] of entries) {
      const list = this.handlers.get(command) ?? [];
      list.push(handler);
      this.handlers.set(command, list);
    }
    return () => {
      for (const [command, handler] of entries) {
        const list = this.handlers.get(command);
        const index = list?.lastIndexOf(handler) ?? -1;
        if (list && index >= 0) list.splice(index, 1);
      }
    };
  }

  /** Enter a context (a dialog opens, a selection appears); returns the function that leaves it. */
  pushContext(context: KeyContext): () => void {
    this.stack.push(context);
    return () => {
      const index = this.stack.lastIndexOf(context);
      if (index >= 0) this.stack.splice(index, 1);
    };
  }

  hasModal(): boolean {
    return this.stack.some((c) => MODAL_CONTEXTS.has(c));
  }

  contextsFor(target: DispatchTarget | null): KeyContext[] {
    for (let i = this.stack.length - 1; i >= 0; i--) {
      if (MODAL_CONTEXTS.has(this.stack[i]!)) return [this.stack[i]!];
    }
    const contexts: KeyContext[] = [];
    const region = target?.closest?.("[data-key-context]")?.getAttribute("data-key-context");
    if (region) contexts.push(region as KeyContext);
    for (let i = this.stack.length - 1; i >= 0; i--) contexts.push(this.stack[i]!);
    contexts.push("workspace");
    return contexts;
  }

  /** Find and run the command for a key press; true when one ran (the default is then prevented). */
  handle(
    event: KeyLike & { target?: unknown; isComposing?: boolean; preventDefault?(): void },
  ): boolean {
    if (event.isComposing) return false;
    const key = keyString(event);
    const target = event.target ?? null;
    const inText = isTextField(target);
    if ((key === "Space" || key === "Enter") && isActivatable(target)) return false;
    for (const context of this.contextsFor(target)) {
      const binding = lookup(this.keymap, context, key, this.schemes());
      if (!binding || (inText && !binding.inTextFields)) continue;
      if (binding.edits && this.readOnly?.readOnly()) {
        this.readOnly.refuse(binding);
        event.preventDefault?.();
        return true;
      }
      const list = this.handlers.get(binding.command);
      const handler = list?.[list.length - 1];
      if (!handler) continue;
      if (handler(event) === false) continue;
      event.preventDefault?.();
      return true;
    }
    return false;
  }
}
