"""The suggestions app's HTTP API: views, and the serializers of what they answer."""
