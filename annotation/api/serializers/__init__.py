"""What the API sends and accepts, one module per area; every view's 2xx answer goes out
through one of these serializers, so the schema at /api/schema/ and the JSON cannot disagree."""
