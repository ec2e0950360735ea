"""The input SciCo's cross-encoder was trained on, for one ordered mention pair.

SciCo's `CrossEncoderDataset.get_full_doc_mention` writes each mention as its whole
paragraph, words joined by spaces, with `<m>` before and `</m>` after the mention and the
separator token at the end; for CDLM the whole is wrapped in `<doc-s>` ... `</doc-s>`. The pair
is the first mention's text, the separator, and the second's, concatenated as strings
(`get_topic_pairs`), and the model's tokenizer encodes that one string with its own special
tokens around it (`tokenize_batch`): for Longformer `<s> A </s></s>B </s></s>`. Global
attention (`get_global_attention`) is on the first token and on every `<m>` and `</m>`, and
for CDLM on `<doc-s>` and `</doc-s>` too.

Where the released code is silent or cannot be followed:
- separator: the tokenizer's own (`</s>` for Longformer and CDLM, `[SEP]` for BERT-like
  models), which is what SciCo's train.py picks for the models it names;
- CDLM is recognised by its tokenizer knowing `<doc-s>` and `</doc-s>`, or by "cdlm" in the
  checkpoint's name (SciCo looks at the name);
- a discontinuous mention gets markers around each span (SciCo has none);
- a pair longer than the model allows has each context cut around its mention (SciCo's
  Longformer takes 4,096 tokens and never cuts).
"""

from __future__ import annotations

from typing import Any

import torch

START, END = "<m>", "</m>"
DOC_START, DOC_END = "<doc-s>", "</doc-s>"


def is_cdlm(tokenizer: Any, name: str = "") -> bool:
    vocabulary = tokenizer.get_vocab()
    return (DOC_START in vocabulary and DOC_END in vocabulary) or "cdlm" in name.lower()


def marked_context(
    tokens: list[str],
    spans: list[tuple[int, int]] | tuple[tuple[int, int], ...],
    separator: str,
    *,
    cdlm: bool = False,
    lo: int = 0,
    hi: int | None = None,
) -> str:
    """Words lo..hi of a paragraph with the mention's spans marked, the separator last."""
    hi = len(tokens) if hi is None else hi
    starts = {s for s, _ in spans}
    ends = {e for _, e in spans}
    words: list[str] = [DOC_START] if cdlm else []
    for w in range(lo, hi):
        if w in starts:
            words.append(START)
        words.append(tokens[w])
        if w in ends:
            words.append(END)
    words.append(separator)
    if cdlm:
        words.append(DOC_END)
    return " ".join(words)


def pair_text(first: str, second: str, separator: str) -> str:
    """The two contexts as one string, as SciCo concatenates them (no spaces added)."""
    return first + separator + second


def global_attention_mask(input_ids: torch.Tensor, marker_ids: list[int]) -> torch.Tensor:
    """1 on the first token and on every marker token (<m>, </m>; <doc-s>, </doc-s> for CDLM)."""
    mask = torch.zeros_like(input_ids, dtype=torch.bool)
    for token_id in marker_ids:
        mask |= input_ids == token_id
    mask[:, 0] = True
    return mask.long()
