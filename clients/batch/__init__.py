"""The module paths of earlier releases, where Spark and Ray jobs written for them import the
Arrow core (`clients.batch.arrow_settle`, `clients.batch.arrow_schema`). Batch rescoring is
the top-level package `batch` now (docs/BATCH.md); these modules only re-export its names,
with a DeprecationWarning, and load no gRPC."""
