#!/usr/bin/env bash
# The README's install-size table: a fresh virtualenv per row, `pip install dist/*.whl[EXTRA]`, `du -sm`.
#
#   bash scripts/venv_sizes.sh                     # core, local, postgres, eval, mcp, openai-agents, langgraph, otel
#   bash scripts/venv_sizes.sh core local          # only these
#
# "local" installs TORCH (default torch==2.13.0, the CPU build where the index has it) first. Prints a Markdown
# table: the venv's MB (pip and setuptools included, ~20 MB) and whether torch / nvidia-* wheels came in.
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
TORCH="${TORCH:-torch==2.13.0}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/goodmemory-sizes.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
if [ $# -gt 0 ]; then ROWS=("$@"); else ROWS=(core local postgres eval mcp openai-agents langgraph otel); fi
rm -rf dist && "$PY" -m pip wheel -q --no-deps -w dist . >/dev/null || exit 1
whl=$(ls dist/*.whl)
echo "| install | venv MB | torch | nvidia-* wheels |"
echo "|---|---|---|---|"
for row in "${ROWS[@]}"; do
  venv="$WORK/$row"
  "$PY" -m venv "$venv"
  if [ "$row" = core ]; then spec="$whl"; label="pip install goodmemory"; else spec="$whl[$row]"; label="pip install \"goodmemory[$row]\""; fi
  # shellcheck disable=SC2086
  if [ "$row" = local ]; then "$venv/bin/python" -m pip install -q $TORCH >"$WORK/$row.log" 2>&1; label="CPU torch, then $label"; fi
  if ! "$venv/bin/python" -m pip install -q "$spec" >>"$WORK/$row.log" 2>&1; then
    echo "| $label | install failed | | |"; tail -n 5 "$WORK/$row.log" >&2; continue
  fi
  mb=$(du -sm "$venv" | cut -f1)
  torch_v=$("$venv/bin/python" -c 'import importlib.metadata as md
try: print(md.version("torch"))
except md.PackageNotFoundError: print("-")')
  nv=$("$venv/bin/python" -m pip list 2>/dev/null | grep -c '^nvidia-' || true)
  echo "| \`$label\` | $mb | $torch_v | $nv |"
  rm -rf "$venv"
done
