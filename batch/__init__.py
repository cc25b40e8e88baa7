"""Batch rescoring: recorded requests in, settlements out, in bulk and in order.

rules_core's values in and out, with no gRPC and nothing of the client library: ``shmj
rescore`` (clients/) drives it on this machine, Dask, Spark and Ray on many. One module a job:

- ``lines``: JSON Lines input as bytes, split on ``\\n`` alone, bounded, numbered, and watched
  for a change while it is read;
- ``records``: one line read into a request (``read_line``), the error records, counts and
  output lines a job writes;
- ``local``: settling requests in this process, each failure costing its own record only;
- ``reviews``: reviewing hand records in bulk (``shmj review -o``) and the counts of a review
  job; ``job_kinds``: how each kind of job (rescore, review) counts and sums up its answers;
- ``arrow_schema`` and ``arrow``: the columnar form of the contract, and the Arrow core
  (``settle_arrow_batch``) that Dask, Spark's ``mapInArrow`` and Ray's ``map_batches`` call;
  ``arrow_columns`` reads request columns into core values, ``arrow_results`` builds result
  columns from core results, ``collector`` pauses the cycle collector while a batch is settled;
- ``parts``, ``dask_job``, ``compare``: input partitions and part files, the Dask job, and
  rule-change reports;
- ``paths``: never writing where the job reads.
- ``native``: the C readers and writers of the JSON and Arrow forms (one module per C file), each
  answering only where it is sure and declining the rest to its Python twin.

``fast_requests`` is on the compiled hot path: ``rules_core.compiled``, imported first, says
whether its compiled module or its source is imported.
"""

import rules_core.compiled  # noqa: F401  # first: it decides where the hot-path modules come from
