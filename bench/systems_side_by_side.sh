#!/usr/bin/env bash
# raw, A, mem0 and graphiti on the bundled corpus, all behind one offline stand-in model
# (tests/graphiti_standin.py --every-system: graphiti's prompts by response model, mem0's and
# seorap's own by their stand-ins), scored with the offline judge and reader. What it measures is
# each system's machinery under the same rule-following model, not its quality with a real one.
#
#   bash bench/systems_side_by_side.sh [OUT_DIR]      # needs the mem0 and graphiti extras
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$(mktemp -d)}"
port="${PORT:-11501}"
mkdir -p "$out"
python "$here/tests/graphiti_standin.py" --port "$port" --every-system > "$out/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
sleep 3
cd "$out"
start=$(date +%s)
seorap run --corpus ko-mini --system raw --system A --system mem0 --system graphiti --db c.db \
  --host "http://127.0.0.1:$port" --embedder hashing --no-score > run.log 2>&1
echo "write: $(( $(date +%s) - start )) s" | tee -a run.log
seorap score --db c.db --offline > score.log 2>&1
seorap report --db c.db --format json -o report.json > /dev/null
COLUMNS=100 seorap report --db c.db > report.txt
COLUMNS=100 seorap compare A graphiti --db c.db > compare.txt || true
echo "results in $out (report.txt, report.json, compare.txt)"
