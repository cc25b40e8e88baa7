"""The gRPC scoring service: a thin layer over rules_core."""

__version__ = "0.1.0"
