"""The scoring service's Grafana dashboard, built with Grafana's own Python SDK.

    .venv/bin/python deploy/grafana/dashboard.py   # or `make dashboard`

writes shmj-scoring-dashboard.json beside this file; a test regenerates it and fails when
the committed JSON is stale. Every query is filtered by the job, namespace and pod
variables; tests/deploy/test_prometheus_live.py runs each against a real Prometheus.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from grafana_foundation_sdk.builders import dashboard as db
from grafana_foundation_sdk.builders import prometheus, table, timeseries
from grafana_foundation_sdk.cog.encoder import JSONEncoder
from grafana_foundation_sdk.models.dashboard import DashboardCursorSync, DataSourceRef, VariableRefresh, VariableSort

OUTPUT = Path(__file__).with_name("shmj-scoring-dashboard.json")
DATASOURCE = DataSourceRef(type_val="prometheus", uid="${datasource}")
SERVICE = 'grpc_service="mahjong.shanghai.v1.ScoringService"'
SELECTOR = 'job=~"$job", namespace=~"$namespace", pod=~"$pod"'
RATE = "[$__rate_interval]"
CLIENT_CODES = (
    "InvalidArgument|NotFound|OutOfRange|FailedPrecondition|AlreadyExists"
    "|Unauthenticated|PermissionDenied|Cancelled|ResourceExhausted"
)
SERVER_CODES = "Unknown|Internal|Unavailable|DataLoss|DeadlineExceeded|Unimplemented|Aborted"


def query(expr: str, legend: str, ref: str = "A", instant: bool = False) -> prometheus.Dataquery:
    q = prometheus.Dataquery().expr(expr).legend_format(legend).ref_id(ref).datasource(DATASOURCE)
    return q.instant().format("table") if instant else q.range()


def quantiles(metric: str, matchers: str, by: str, legend: str) -> list[prometheus.Dataquery]:
    return [
        query(
            f"histogram_quantile({q}, sum by ({by}, le) (rate({metric}_bucket{{{SELECTOR}, {matchers}}}{RATE})))",
            f"{legend} p{round(q * 100)}",
            ref,
        )
        for q, ref in ((0.5, "A"), (0.9, "B"), (0.99, "C"))
    ]


def graph(title: str, description: str, unit: str, targets: list, width: int = 12) -> timeseries.Panel:
    panel = timeseries.Panel().title(title).description(description).unit(unit).datasource(DATASOURCE)
    return panel.targets(targets).span(width).height(8)


def variable(name: str, label: str, source: str) -> db.QueryVariable:
    return (
        db.QueryVariable(name)
        .label(label)
        .datasource(DATASOURCE)
        .query({"query": f"label_values({source}, {name})", "refId": f"{name}-values"})
        .refresh(VariableRefresh.ON_TIME_RANGE_CHANGED)
        .sort(VariableSort.ALPHABETICAL_ASC)
        .multi(True)
        .include_all(True)
        .all_value(".*")
    )


def handled(matchers: str) -> str:
    return f"sum(rate(grpc_server_handled_total{{{SELECTOR}, {SERVICE}, {matchers}}}{RATE}))"


def build() -> db.Dashboard:
    calls = handled(f'grpc_code!~"{CLIENT_CODES}"')
    server_errors = handled(f'grpc_code=~"{SERVER_CODES}"')
    error_ratio = f"({server_errors} or 0 * {calls}) / {calls}"
    every_call = handled('grpc_code=~".+"')
    client_errors = handled(f'grpc_code=~"{CLIENT_CODES}"')
    client_ratio = f"({client_errors} or 0 * {every_call}) / {every_call}"
    settle_methods = 'grpc_method=~"Settle|SettleBatch|SettleStream"'
    rejected = f"sum(rate(shmj_rejected_requests_total{{{SELECTOR}, {settle_methods}}}{RATE}))"
    judged = (
        f'sum(rate({{{SELECTOR}, __name__=~"shmj_settlements_total|shmj_rejected_requests_total",'
        f' grpc_method=~"|Settle|SettleBatch|SettleStream"}}{RATE}))'
    )
    return (
        db.Dashboard("Shanghai Mahjong scoring service")
        .uid("shmj-scoring")
        .description("Calls, errors, latency, the game's domain and economy, and the processes of shmj-scoring.")
        .tags(["shmj", "grpc"])
        .time("now-1h", "now")
        .refresh("30s")
        .tooltip(DashboardCursorSync.CROSSHAIR)
        .with_variable(db.DatasourceVariable("datasource").label("Data source").type("prometheus"))
        .with_variable(variable("job", "Job", 'up{job=~"shmj-scoring.*"}'))
        .with_variable(variable("namespace", "Namespace", 'up{job=~"$job"}'))
        .with_variable(variable("pod", "Pod", 'up{job=~"$job", namespace=~"$namespace"}'))
        .with_row(db.Row("Calls and errors"))
        .with_panel(
            graph(
                "Call rate by method",
                "Calls finished per second, every status.",
                "reqps",
                [
                    query(
                        f"sum by (grpc_method) (rate(grpc_server_handled_total{{{SELECTOR}, {SERVICE}}}{RATE}))",
                        "{{grpc_method}}",
                    )
                ],
            )
        )
        .with_panel(
            graph(
                "Error ratio",
                "Server errors over the calls the server answers for (client errors left out of both), "
                "as the SLO counts them (budget 0.1%); and client errors over all calls.",
                "percentunit",
                [query(error_ratio, "server errors (SLO)"), query(client_ratio, "client errors", "B")],
            )
        )
        .with_panel(
            graph(
                "Calls by code",
                "Calls finished per second by gRPC status code.",
                "reqps",
                [
                    query(
                        f"sum by (grpc_code) (rate(grpc_server_handled_total{{{SELECTOR}, {SERVICE}}}{RATE}))",
                        "{{grpc_code}}",
                    )
                ],
            )
        )
        .with_panel(
            graph(
                "In-flight calls",
                "Calls being handled now, added up over the workers.",
                "short",
                [
                    query(
                        f"sum by (grpc_method) (grpc_server_in_flight_requests{{{SELECTOR}, {SERVICE}}})",
                        "{{grpc_method}}",
                    )
                ],
            )
        )
        .with_row(db.Row("Latency"))
        .with_panel(
            graph(
                "Unary latency by method",
                "p50, p90 and p99 of the unary calls, per method. Objective: p99 under 25 ms (SettleBatch 1 s).",
                "s",
                quantiles(
                    "grpc_server_handling_seconds", f'{SERVICE}, grpc_type="unary"', "grpc_method", "{{grpc_method}}"
                ),
            )
        )
        .with_panel(
            graph(
                "Stream durations",
                "How long SettleStream calls stay open: their client's choice, apart from the unary latencies.",
                "s",
                quantiles(
                    "grpc_server_handling_seconds",
                    f'{SERVICE}, grpc_type="bidi_stream"',
                    "grpc_method",
                    "{{grpc_method}}",
                ),
            )
        )
        .with_panel(
            graph(
                "Batch sizes",
                "Requests per SettleBatch call or SettleStream: the mean (exact) and p50/p99 (from 1-2-5 buckets).",
                "short",
                [
                    query(
                        f"sum by (grpc_method) (rate(shmj_batch_size_sum{{{SELECTOR}}}{RATE}))"
                        f" / sum by (grpc_method) (rate(shmj_batch_size_count{{{SELECTOR}}}{RATE}))",
                        "{{grpc_method}} mean",
                        "M",
                    ),
                    *quantiles("shmj_batch_size", 'grpc_method=~".+"', "grpc_method", "{{grpc_method}}")[::2],
                ],
            )
        )
        .with_row(db.Row("The game"))
        .with_panel(
            graph(
                "Settlements by profile and outcome",
                "Hands settled per second.",
                "ops",
                [
                    query(
                        f"sum by (profile, outcome) (rate(shmj_settlements_total{{{SELECTOR}}}{RATE}))",
                        "{{profile}} {{outcome}}",
                    )
                ],
            )
        )
        .with_panel(
            table.Panel()
            .title("Settlements over the range")
            .description("Hands settled by profile and outcome over the dashboard's time range (instant query).")
            .datasource(DATASOURCE)
            .targets(
                [
                    query(
                        f"sum by (profile, outcome) (increase(shmj_settlements_total{{{SELECTOR}}}[$__range]))",
                        "",
                        instant=True,
                    )
                ]
            )
            .span(12)
            .height(8)
        )
        .with_panel(
            graph(
                "Illegal share of claimed wins",
                "Claimed wins judged not legal, over all claimed wins, by profile.",
                "percentunit",
                [
                    query(
                        f'sum by (profile) (rate(shmj_claimed_wins_total{{{SELECTOR}, legal="false"}}{RATE}))'
                        f" / sum by (profile) (rate(shmj_claimed_wins_total{{{SELECTOR}}}{RATE}))",
                        "{{profile}}",
                    )
                ],
            )
        )
        .with_panel(
            graph(
                "Illegal wins by reason",
                "Why claimed wins were not legal, per second (a win can have several reasons).",
                "ops",
                [query(f'sum by (reason) (rate(shmj_wins_total{{{SELECTOR}, legal="false"}}{RATE}))', "{{reason}}")],
            )
        )
        .with_panel(
            graph(
                "Patterns scored",
                "Patterns on legal wins per second, by profile.",
                "ops",
                [
                    query(
                        f"sum by (profile, pattern) (rate(shmj_patterns_total{{{SELECTOR}}}{RATE}))",
                        "{{profile}} {{pattern}}",
                    )
                ],
            )
        )
        .with_panel(
            graph(
                "Rejected inputs",
                "Malformed requests and entries per second by rpc, and the share of settlement entries "
                "rejected (the ShmjScoringRejectingMuchInput ratio, right axis).",
                "ops",
                [
                    query(
                        f"sum by (grpc_method) (rate(shmj_rejected_requests_total{{{SELECTOR}}}{RATE}))",
                        "{{grpc_method}}",
                    ),
                    query(f"{rejected} / {judged}", "rejected share of entries", "B"),
                ],
            )
        )
        .with_panel(
            graph(
                "Value per share by profile",
                "p50 and p99 of V, the settled value per share of legal wins, in the profile's unit (花 or 底): "
                "a rules or profile change that makes values jump shows here first.",
                "short",
                quantiles("shmj_value_per_share", 'profile=~".+"', "profile", "{{profile}}")[::2],
            )
        )
        .with_panel(
            graph(
                "Paid per hand by profile",
                "p50 and p99 of the amount paid in one settled hand, in the profile's unit.",
                "short",
                quantiles("shmj_paid_per_hand", 'profile=~".+"', "profile", "{{profile}}")[::2],
            )
        )
        .with_row(db.Row("Processes"))
        .with_panel(
            graph(
                "CPU per pod",
                "CPU seconds per second of each pod: the supervisor and its workers added up.",
                "short",
                [query(f"sum by (pod) (rate(process_cpu_seconds_total{{{SELECTOR}}}{RATE}))", "{{pod}}")],
                8,
            )
        )
        .with_panel(
            graph(
                "Memory (RSS) per pod",
                "Resident memory of each pod's processes added up; compare with the memory limit.",
                "bytes",
                [query(f"sum by (pod) (process_resident_memory_bytes{{{SELECTOR}}})", "{{pod}}")],
                8,
            )
        )
        .with_panel(
            graph(
                "Restarts",
                "Over the time range: worker processes replaced by their supervisor, and pod (supervisor) restarts.",
                "short",
                [
                    query(
                        f'sum by (pod) (changes(process_start_time_seconds{{{SELECTOR}, process=~"worker-.*"}}[$__range]))',
                        "{{pod}} workers replaced",
                    ),
                    query(
                        f'sum by (pod) (changes(process_start_time_seconds{{{SELECTOR}, process="supervisor"}}[$__range]))',
                        "{{pod}} restarts",
                        "B",
                    ),
                ],
                8,
            )
        )
        .with_panel(
            graph(
                "Garbage collector pauses",
                "Pauses of each worker's cyclic garbage collector by generation (p50, p90, p99): every call"
                " leaves gRPC's handler look-up cycle for it, and a pause delays every call waiting on that"
                " worker (server/garbage.py; about a millisecond each at the default thresholds).",
                "s",
                quantiles("shmj_gc_pause_seconds", 'generation=~".+"', "generation", "generation {{generation}}"),
            )
        )
        .with_panel(
            graph(
                "House profiles",
                "House profiles in force per pod (shmj_profiles_loaded), and reloads of --profiles-dir over the time"
                " range by result: `refused` means a bad file, the old profiles kept (alert ShmjScoringProfileReloadRefused).",
                "short",
                [
                    query(f"max by (pod) (shmj_profiles_loaded{{{SELECTOR}}})", "{{pod}} in force"),
                    query(
                        f"sum by (pod, result) (increase(shmj_profile_reloads_total{{{SELECTOR}}}[$__range]))",
                        "{{pod}} reloads {{result}}",
                        "B",
                    ),
                ],
            )
        )
    )


def render() -> str:
    return json.dumps(build().build(), cls=JSONEncoder, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> int:
    OUTPUT.write_text(render())
    print(f"wrote {OUTPUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
