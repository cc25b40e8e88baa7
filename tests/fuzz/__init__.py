"""Hostile bodies for every rpc of ScoringService, sent as raw bytes over a real channel.

`bodies` makes them (seeded, deterministic), `runner` sends them and judges the answers,
`procs` watches the worker processes; `make fuzz` runs the long version, `make test` a slice.
"""
