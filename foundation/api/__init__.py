"""The DRF layer every app's API shares: the error mapping, the schema class, the permissions."""
