#!/usr/bin/env bash
# Regenerates every torch vector suite: interp/testdata/torch/*.json.
set -euo pipefail
cd "$(dirname "$0")/../.."
for f in scripts/torch_vectors/*.py; do
  [ "$(basename "$f")" = common.py ] && continue
  /usr/bin/python3 "$f"
done
