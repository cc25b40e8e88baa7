"""The soak's picture: RSS and open fds of each worker, and latency, over time."""

from __future__ import annotations


def _windows(calls, width: float):
    """(window middle, p50 ms, p99 ms) per window of ``width`` seconds."""
    buckets: dict[int, list[float]] = {}
    for at, latency, _, _, _ in calls:
        buckets.setdefault(int(at // width), []).append(latency * 1000)
    points = []
    for key in sorted(buckets):
        values = sorted(buckets[key])
        points.append(
            (key * width + width / 2, values[len(values) // 2], values[min(len(values) - 1, int(len(values) * 0.99))])
        )
    return points


def plot_soak(samples, pids: list[int], args, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (rss_axis, fd_axis, latency_axis) = plt.subplots(3, 1, figsize=(10, 9), dpi=100, sharex=True)
    for pid in pids:
        points = [(t, by_pid[pid]) for t, by_pid in samples.procs if by_pid.get(pid, (0, 0))[0]]
        if not points:
            continue
        times = [t for t, _ in points]
        rss_axis.plot(times, [v[0] / 2**20 for _, v in points], label=f"worker {pid}")
        fd_axis.plot(times, [v[1] for _, v in points], label=f"worker {pid}")
    width = max(5.0, args.duration / 120)
    windows = _windows(samples.calls, width)
    if windows:
        xs, p50, p99 = zip(*windows, strict=True)
        latency_axis.plot(xs, p50, label=f"p50 per {width:g} s")
        latency_axis.plot(xs, p99, label=f"p99 per {width:g} s")
    latency_axis.set_yscale("log")
    for axis, label in ((rss_axis, "RSS (MB)"), (fd_axis, "open file descriptors"), (latency_axis, "latency (ms)")):
        axis.axvspan(0, args.warmup, color="grey", alpha=0.15, label="warm-up" if axis is rss_axis else None)
        axis.set_ylabel(label)
        axis.grid(True, alpha=0.3)
        axis.legend(loc="upper right")
    latency_axis.set_xlabel("seconds since start")
    rss_axis.set_title(
        f"soak: {args.rate:g} calls/s for {args.duration:g} s, {args.malformed:.0%} malformed, {len(pids)} workers"
    )
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
