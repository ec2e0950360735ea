"""What the report endpoints send and accept, one module per report."""
