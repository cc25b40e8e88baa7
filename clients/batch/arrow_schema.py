"""Deprecated: the Arrow schemas are `batch.arrow_schema` now."""

import warnings

from batch.arrow_schema import REQUEST_SCHEMA, RESULT_SCHEMA

__all__ = ["REQUEST_SCHEMA", "RESULT_SCHEMA"]

warnings.warn(
    "clients.batch.arrow_schema is batch.arrow_schema now; import from there", DeprecationWarning, stacklevel=2
)
