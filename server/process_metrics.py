"""``process_*`` metrics (CPU, RSS, open fds, start time) for the supervisor and each worker.

prometheus_client's multi-process mode drops its ProcessCollector, so the supervisor reads
``/proc`` for itself and for every live worker at scrape time. Each sample carries a
``process`` label: ``supervisor``, or ``worker-N`` by slot (a replaced worker keeps its
slot's label, so series do not pile up with pids). ``sum by (pod) (...)`` adds them up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from prometheus_client.metrics_core import Metric
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector, CollectorRegistry

LABEL = "process"


class LabelledProcessCollector(Collector):
    """``process_*`` of several processes, told apart by the ``process`` label.

    ``processes`` returns ``(label value, pid)`` pairs at each scrape; a pid that has just
    exited is skipped, as ProcessCollector skips what it cannot read.
    """

    def __init__(self, processes: Callable[[], Iterable[tuple[str, int]]]):
        self._processes = processes

    def collect(self) -> Iterable[Metric]:
        families: dict[str, Metric] = {}
        for name, pid in self._processes():
            reader = ProcessCollector(pid=lambda pid=pid: pid, registry=None)
            for family in reader.collect():
                merged = families.setdefault(family.name, Metric(family.name, family.documentation, family.type))
                for sample in family.samples:
                    merged.add_sample(sample.name, {**sample.labels, LABEL: name}, sample.value)
        return list(families.values())


def register(registry: CollectorRegistry, processes: Callable[[], Iterable[tuple[str, int]]]) -> None:
    registry.register(LabelledProcessCollector(processes))
