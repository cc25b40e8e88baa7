"""`shmj rescore --dask` on an object store: inputs read from `s3://`, part files written to
`s3://`, through s3fs against moto's S3 server on loopback (a real HTTP S3 API, in a thread
of this process). The Dask workers are processes of their own: they find the server as any
user's would, through the AWS environment variables set before they start.

The parts written to S3 are byte for byte those of the same job on local files; a part lost
from the bucket is redone by --resume, and its stale temporary object is removed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from clients.cli import main
from generators.random_hands import generate_requests
from tests.clients.test_rescore import request_line
from tests.server.conftest import ROOT

EXAMPLES = ROOT / "examples"
BUCKET = "lake"


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    """An S3 endpoint on loopback, a bucket holding the inputs, and a Dask cluster whose workers
    were started with the endpoint in their environment. Yields (filesystem, scheduler, local
    copy of the inputs)."""
    from distributed import LocalCluster
    from moto.server import ThreadedMotoServer

    tmp = tmp_path_factory.mktemp("s3")
    saved = dict(os.environ)
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    os.environ.update(
        AWS_ENDPOINT_URL=f"http://{host}:{port}",
        AWS_ACCESS_KEY_ID="test",
        AWS_SECRET_ACCESS_KEY="test",  # noqa: S105  moto's, on loopback
        AWS_DEFAULT_REGION="us-east-1",
        AWS_CONFIG_FILE=str(tmp / "no-config"),
        AWS_SHARED_CREDENTIALS_FILE=str(tmp / "no-credentials"),
    )
    try:
        import s3fs

        fs = s3fs.S3FileSystem(skip_instance_cache=True)
        fs.mkdir(BUCKET)
        local = tmp / "in"
        local.mkdir()
        (local / "hands.jsonl").write_text((EXAMPLES / "hands.jsonl").read_text())
        (local / "more.jsonl").write_text("".join(request_line(r) + "\n" for r in generate_requests(300, 8)))
        (local / "hands.parquet").write_bytes((EXAMPLES / "hands.parquet").read_bytes())
        fs.put(str(local) + "/", f"{BUCKET}/in/", recursive=True)
        with LocalCluster(
            n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address="127.0.0.1:0"
        ) as cluster:
            yield fs, cluster.scheduler_address, local
    finally:
        server.stop()
        os.environ.clear()
        os.environ.update(saved)


def rescore(*args) -> int:
    return main(["rescore", *map(str, args), "--no-progress"])


def written(fs, url: str) -> dict[str, bytes]:
    """Every part file of an output directory on S3 (and of its changes), by name: its bytes."""
    fs.invalidate_cache()
    root = url.removeprefix("s3://")
    found = fs.glob(f"{root}/part-*") + fs.glob(f"{root}/changes/part-*")
    return {p.removeprefix(root + "/"): fs.cat(p) for p in sorted(found)}


def on_disk(directory: Path) -> dict[str, bytes]:
    found = [*directory.glob("part-*"), *directory.glob("changes/part-*")]
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(found)}


def test_parts_on_s3_are_the_local_jobs_byte_for_byte_and_resume_redoes_a_lost_one(tmp_path, s3):
    fs, scheduler, local = s3
    previous = tmp_path / "previous.jsonl"  # the hands settled under classic rules, compared with lezi's
    assert rescore(local / "hands.jsonl", "-o", previous, "--local", "--profile", "classic") == 0
    arguments = ["--dask", scheduler, "--block-size", 0.02, "--profile", "lezi", "--compare", previous]
    assert rescore(local / "hands.jsonl", local / "more.jsonl", "-o", tmp_path / "out", *arguments) == 0
    inputs = [f"s3://{BUCKET}/in/hands.jsonl", f"s3://{BUCKET}/in/more.jsonl"]
    assert rescore(*inputs, "-o", f"s3://{BUCKET}/out", *arguments) == 0
    expected = on_disk(tmp_path / "out")
    parts = sorted(p.name for p in (tmp_path / "out").glob("part-*.jsonl"))
    assert len(parts) >= 4 and sorted((tmp_path / "out" / "changes").glob("part-*.jsonl"))
    assert written(fs, f"s3://{BUCKET}/out") == expected
    summary = json.loads(fs.cat(f"{BUCKET}/out/summary.json"))
    assert (summary["records"], summary["parts_complete"], summary["failed_parts"]) == (335, len(parts), [])
    assert summary["inputs"] == inputs and summary["output"] == f"s3://{BUCKET}/out"

    # The job killed before part 4 was renamed into place, its temporary object left behind.
    lost = fs.cat(f"{BUCKET}/out/part-00004.jsonl")
    fs.rm(f"{BUCKET}/out/part-00004.jsonl")
    fs.pipe(f"{BUCKET}/out/.part-00004.jsonl.0123.tmp", lost[:100])
    assert rescore(*inputs, "-o", f"s3://{BUCKET}/out", *arguments) == 2  # not without --resume
    assert rescore(*inputs, "-o", f"s3://{BUCKET}/out", *arguments, "--resume") == 0
    assert written(fs, f"s3://{BUCKET}/out") == expected
    assert not fs.glob(f"{BUCKET}/out/.*.tmp")
    summary = json.loads(fs.cat(f"{BUCKET}/out/summary.json"))
    redone = len(lost.splitlines())
    assert (summary["records"], summary["records_this_run"], summary["skipped_by_resume"]) == (
        335,
        redone,
        335 - redone,
    )
    local_summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["changes"] == local_summary["changes"] and summary["changes"]["matched"] == 35
    # a rule change (another profile digest) for every record settled both times, and some pay otherwise too;
    # the four hands holding a dragon as a flower are refused under both and do not change
    changes = summary["changes"]
    what = ("changed", "legality_changed", "value_changed", "seat_deltas_changed", "rules_changed")
    assert tuple(changes[name] for name in what) == (31, 5, 23, 24, 29)


def test_parquet_in_and_out_on_s3_is_the_local_jobs_byte_for_byte(tmp_path, s3, capsys):
    fs, scheduler, local = s3
    arguments = ["--dask", scheduler, "--format", "parquet", "--block-size", 0.001]
    assert rescore(local / "hands.parquet", "-o", tmp_path / "out", *arguments) == 0
    assert rescore(f"s3://{BUCKET}/in/*.parquet", "-o", f"s3://{BUCKET}/parquet", *arguments) == 0
    expected = on_disk(tmp_path / "out")
    assert list(expected) == [f"part-0000{i}.parquet" for i in range(4)]  # the sample's four row groups
    assert written(fs, f"s3://{BUCKET}/parquet") == expected
    capsys.readouterr()
    assert rescore(f"s3://{BUCKET}/in", "-o", f"s3://{BUCKET}/in/out", *arguments) == 2
    assert capsys.readouterr().err == (
        f"shmj: the output directory s3://{BUCKET}/in/out is inside the input s3://{BUCKET}/in; choose another -o\n"
    )
