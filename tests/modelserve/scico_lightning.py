"""Tiny random encoders, and SciCo's unified model as its released code builds it, for the
checkpoint and training-profile tests (no real model is trained or downloaded)."""

from __future__ import annotations

from pathlib import Path

import torch
from transformers import AutoModel, AutoTokenizer, BertConfig, BertModel

from modelserve.encoders import default_encoder_path


def tiny_encoder(path: Path, *, seed: int = 0) -> Path:
    """A randomly initialised 2-layer BERT with the packaged MiniLM's vocabulary, dropout off
    (so two runs from it compute the same), saved as an ordinary encoder folder."""
    tokenizer = AutoTokenizer.from_pretrained(default_encoder_path(), local_files_only=True)
    torch.manual_seed(seed)
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=37,
        max_position_embeddings=512,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
    )
    BertModel(config).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


class ReleasedMulticlassCrossEncoder(torch.nn.Module):
    """SciCo's models/muticlass.py MulticlassCrossEncoder, its __init__ and forward as
    released, without Lightning (its metrics and optimiser hold no weights)."""

    def __init__(self, bert_model: str, num_classes: int = 4) -> None:
        super().__init__()
        self.tokenizer = AutoTokenizer.from_pretrained(bert_model)
        self.tokenizer.add_tokens("<m>", special_tokens=True)
        self.tokenizer.add_tokens("</m>", special_tokens=True)
        self.start = self.tokenizer.convert_tokens_to_ids("<m>")
        self.end = self.tokenizer.convert_tokens_to_ids("</m>")
        self.model = AutoModel.from_pretrained(bert_model, add_pooling_layer=False)
        self.model.resize_token_embeddings(len(self.tokenizer))
        self.linear = torch.nn.Linear(self.model.config.hidden_size, num_classes)
        self.criterion = torch.nn.CrossEntropyLoss()

    def forward(self, input_ids, attention_mask, global_attention_mask):
        # SciCo passes global_attention_mask to a Longformer; BERT takes none
        output = self.model(input_ids, attention_mask=attention_mask)
        cls_vector = output.last_hidden_state[:, 0, :]
        return self.linear(cls_vector)

    def predict(self, pairs: list[str]) -> torch.Tensor:
        """predict_step's softmax on tokenize_batch's inputs."""
        tokens = self.tokenizer(list(pairs), padding=True)
        input_ids = torch.tensor(tokens["input_ids"])
        attention_mask = torch.tensor(tokens["attention_mask"])
        with torch.no_grad():
            return torch.softmax(self(input_ids, attention_mask, None), dim=1)


def spread_head(module: ReleasedMulticlassCrossEncoder, texts: list[str]) -> None:
    """A random encoder's first-token vectors hardly differ between inputs: the head is set
    to read their differences (centred on `texts`, scaled to a few logits), so that pairs get
    different classes and a comparison of probabilities means something."""
    if not texts:
        return
    tokens = module.tokenizer(texts, padding=True, return_tensors="pt")
    with torch.no_grad():
        cls = module.model(**tokens).last_hidden_state[:, 0, :]
        weight = torch.randn_like(module.linear.weight)
        projected = (cls - cls.mean(0)) @ weight.T
        weight /= projected.std(0, keepdim=True).T * 0.5
        module.linear.weight.copy_(weight)
        module.linear.bias.copy_(-(cls.mean(0) @ weight.T))


def lightning_checkpoint(
    encoder: Path, out: Path, *, seed: int = 1, calibration: list[str] | None = None
) -> ReleasedMulticlassCrossEncoder:
    """A .ckpt as PyTorch Lightning 1.3 writes one for SciCo's module (the weights under
    `state_dict` by the module's attribute names, with the trainer's bookkeeping beside
    them), from a randomly initialised head; the module is returned to compare with."""
    torch.manual_seed(seed)
    module = ReleasedMulticlassCrossEncoder(str(encoder)).eval()
    spread_head(module, calibration or [])
    state = module.state_dict()
    # transformers of SciCo's time kept this buffer in the state dict; newer ones do not
    state["model.embeddings.position_ids"] = torch.arange(512).unsqueeze(0)
    torch.save(
        {
            "epoch": 0,
            "global_step": 1250,
            "pytorch-lightning_version": "1.3.8",
            "state_dict": state,
            "callbacks": {"ModelCheckpoint": {"best_model_score": None, "best_model_path": ""}},
            "optimizer_states": [],
            "lr_schedulers": [],
        },
        out,
    )
    return module
