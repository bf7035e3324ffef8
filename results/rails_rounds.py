"""The records that the two-host rails benchmarks leave (OUTDIR/railsR-roundN.json, as
cluster_bench_on_rails runs them), read for their summaries."""
import json
import os


def rails_rows(out, rounds):
    """Every result of every round over 1 and 2 rails, as (rails, result); each must be right."""
    for rails in (1, 2):
        for rnd in range(1, rounds + 1):
            for r in json.load(open(os.path.join(out, f"rails{rails}-round{rnd}.json")))["results"]:
                assert r["wrong"] == 0, r
                yield rails, r
