"""Training the `trained` suggestion backend on a project's gold or adjudicated topics."""

from modelserve.training.suggester import train_suggester

__all__ = ["train_suggester"]
