#!/usr/bin/env bash
# Create .venv and install GoodMemory with its test, eval and postgres extras.
# torch is pinned first: an unpinned requirement pulls a multi-GB CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
. .venv/bin/activate
python -m pip install -q --upgrade pip
python -m pip install -q "torch==2.13.0"
python -m pip install -q -e ".[dev,postgres]"
python - <<'PY'
import goodmemory, sys
print(f"goodmemory {goodmemory.__version__} installed in {sys.prefix}", file=sys.stderr)
PY
