"""Seeded generators of rules_core input, for the tests, the benchmarks and the load generator.

Not rules: they build requests and hand records that exercise the rules, the same for the same seed.

- `random_hands`: settle requests of every profile and outcome, legal, illegal and malformed
- `record_simulator`: whole hands played from a wall, written as valid hand records (牌谱)
"""
