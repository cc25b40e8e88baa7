"""Batch rescoring: recorded requests in, settlements out, in bulk and in order.

rules_core's values in and out, with no gRPC: ``shmj rescore`` (clients/) drives it on this
machine, Dask, Spark and Ray on many. One module a job:

- ``lines``: JSON Lines input as bytes, split on ``\\n`` alone, bounded, numbered, and watched
  for a change while it is read.
"""
