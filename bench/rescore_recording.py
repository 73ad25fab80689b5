"""Re-score the recording that ships (fixtures/recordings/) with the current rules, in place.

The recorded run keeps its model calls (extraction, synthesis, embeddings); only the offline
scoring — the reader's answers and the lexical judge's verdicts — is done again, so a rules change
(``lexical-5`` → ``lexical-6``) does not leave the shipped run's verdicts under other rules than
a fresh run's (``seorap compare`` refuses mixed rules). The label (model, size, machine, date) is
the recording's own.

The run is scored first, then replayed once with the recording's own embedder loaded. Scoring
first: a reply the scoring needs that the file does not hold yet (the model reader's reading of a
slot question the rules now word otherwise) is made by the run itself, through ``OLLAMA_HOST``,
and is exported with it (a replay's calls are its own run's, and the export would leave them). The
replay after it: a text a replay embeds that the file does not hold yet (a new slot question) gets
its vector from that embedder, and the file carries it from then on, so `seorap demo --replay
recorded` needs neither model nor embedder. With no reply missing, no model is reached
(``OLLAMA_HOST=http://127.0.0.1:9``).

    python bench/rescore_recording.py [--out PATH]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from click.testing import CliRunner

from seorap.cli.main import cli
from seorap.engine.corpus import load_corpus
from seorap.engine.corpus.bundled import bundled_corpus
from seorap.engine.run.runner import replay_run
from seorap.engine.store.database import open_db
from seorap.engine.store.recording import (
    export_run,
    import_recording,
    read_recording,
    shipped_recordings,
)

KO_MINI = bundled_corpus("ko-mini")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recording", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None, help="default: over the recording")
    args = parser.parse_args(argv)
    path = args.recording or shipped_recordings()[0]
    header, _ = read_recording(path)
    with tempfile.TemporaryDirectory() as tmp:
        db_path = Path(tmp) / "rec.db"
        db = open_db(str(db_path))
        run_id, _ = import_recording(db, path)
        db.close()
        result = CliRunner().invoke(cli, ["score", "--db", str(db_path), "--run", run_id])
        if result.exit_code != 0:
            print(result.output)
            return 1
        db = open_db(str(db_path))
        replay_run(db, run_id, load_corpus(KO_MINI))  # vectors for every text a replay embeds
        db.close()
        db = open_db(str(db_path), readonly=True)
        out = args.out or path
        counts = export_run(db, run_id, out, header["label"], corpus="ko-mini")
    print(json.dumps({"run": run_id, "counts": counts, "bytes": out.stat().st_size}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
