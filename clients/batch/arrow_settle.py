"""Deprecated: the Arrow core is `batch.arrow` now; its earlier names are kept there."""

import warnings

from batch.arrow import is_json_column, request_rows, settle_record_batch, settle_record_batches, settle_records

__all__ = ["is_json_column", "request_rows", "settle_record_batch", "settle_record_batches", "settle_records"]

warnings.warn("clients.batch.arrow_settle is batch.arrow now; import from there", DeprecationWarning, stacklevel=2)
