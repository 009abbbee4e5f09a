#!/usr/bin/env bash
# Create .venv and install GoodMemory with everything the test suite and the evaluation need:
# the local embedder (local), the test tools and every integration (dev), PostgreSQL (postgres).
# torch is pinned first, to its CPU build: an unpinned requirement pulls a multi-GB CUDA build.
# TORCH overrides the pin, e.g. TORCH="torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu".
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
TORCH="${TORCH:-torch==2.13.0}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
. .venv/bin/activate
python -m pip install -q --upgrade pip
# shellcheck disable=SC2086  # TORCH may carry pip options
python -m pip install -q $TORCH
python -m pip install -q -e ".[dev,local,postgres]"
python - <<'PY'
import goodmemory, sys
print(f"goodmemory {goodmemory.__version__} installed in {sys.prefix}", file=sys.stderr)
PY
