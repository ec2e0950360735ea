"""Starting and stopping the whole application on one machine (what `make up` runs)."""
