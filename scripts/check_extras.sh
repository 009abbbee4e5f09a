#!/usr/bin/env bash
# Each integration extra installs alone and its tests pass with nothing else installed; and the built wheel,
# installed into a clean virtualenv, runs the README quickstart and `goodmemory eval --smoke` offline.
#
# For every extra: a fresh virtualenv under a temporary directory, torch pinned first (an unpinned
# requirement pulls a multi-GB CUDA build), then `pip install -e ".[EXTRA,local]" pytest`, then only that
# integration's tests and its README example. A skipped test counts as a failure: there it means the
# extra lacks something its integration needs. One summary line per extra; exit 1 if any failed.
#
#   bash scripts/check_extras.sh                  # every extra below, then wheel-core and wheel-local
#   bash scripts/check_extras.sh mcp otel         # only these
#   bash scripts/check_extras.sh wheel-core       # `pip install dist/*.whl` alone (hashing embedder, no torch)
#   bash scripts/check_extras.sh wheel-local      # torch pinned, then the wheel with [local] (MiniLM on ONNX)
#
# The wheel checks build dist/*.whl first (pip wheel --no-deps), install it into a fresh virtualenv, then run,
# from an empty directory with the network cut off (unshare -n, when available) and an empty HOME and cache:
# the README quickstart, the quickstart again (the second process reads the cache), and
# `goodmemory eval --smoke`. They print the virtualenv's size (du -sm) and whether torch / nvidia-* came in.
#   KEEP=1 bash scripts/check_extras.sh           # keep the virtualenvs and logs (path printed)
#
# Env: PYTHON (default python3), TORCH (default torch==2.13.0). Takes a few minutes per extra.
# The fast in-suite counterpart is tests/integration/test_extras_isolation.py.
set -uo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
TORCH="${TORCH:-torch==2.13.0}"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/goodmemory-extras.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then echo "check_extras: work dir $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi

README_TEST=tests/integration/test_readme_integrations.py
declare -A TESTS=(
  [mcp]="tests/integration/test_mcp.py tests/integration/test_mcp_tags.py $README_TEST::test_mcp_servers_entry_is_valid_json_naming_the_installed_command"
  [openai-agents]="tests/integration/test_openai_agents.py tests/integration/test_adapter_persistence.py::test_agents_session_history_survives_a_restart $README_TEST::test_integration_example_runs[agents]"
  [langgraph]="tests/integration/test_langgraph.py tests/integration/test_adapter_persistence.py::test_langgraph_items_survive_a_restart tests/integration/test_adapter_persistence.py::test_langgraph_on_an_in_memory_store_stays_in_memory $README_TEST::test_integration_example_runs[langchain]"
  [otel]="tests/integration/test_otel.py $README_TEST::test_integration_example_runs[opentelemetry]"
  [server]="tests/integration/test_server.py tests/integration/test_server_tags_ids.py $README_TEST::test_integration_example_runs[fastapi]"
  [pydantic-ai]="tests/integration/test_pydantic_ai.py $README_TEST::test_integration_example_runs[pydantic_ai]"
  [llama-index]="tests/integration/test_llama_index.py $README_TEST::test_integration_example_runs[llama_index]"
)
declare -A UPSTREAM=(  # the distributions whose installed versions are reported
  [mcp]="mcp"
  [openai-agents]="openai-agents"
  [langgraph]="langgraph langchain"
  [otel]="opentelemetry-api opentelemetry-sdk"
  [server]="fastapi uvicorn"
  [pydantic-ai]="pydantic-ai-slim"
  [llama-index]="llama-index-core"
)

if [ $# -gt 0 ]; then EXTRAS=("$@"); else
  EXTRAS=(mcp openai-agents langgraph otel server pydantic-ai llama-index wheel-core wheel-local); fi
declared=$("$PY" -c 'import tomllib; print(" ".join(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]))')
summary=()
failed=0
NET=""
if unshare -n true 2>/dev/null; then NET="unshare -n"; fi

check_wheel() {  # $1: core | local
  local kind=$1 venv="$WORK/venv-wheel-$1" log="$WORK/wheel-$1" t0=$SECONDS
  rm -rf dist && "$PY" -m pip wheel -q --no-deps -w dist . >"$log-build.log" 2>&1 || {
    tail -n 20 "$log-build.log" >&2; summary+=("$(printf '%-14s FAIL  wheel build failed' "wheel-$kind")"); failed=1; return; }
  local whl
  whl=$(ls dist/*.whl)
  { "$PY" -m venv "$venv" \
      && if [ "$kind" = local ]; then "$venv/bin/python" -m pip install -q $TORCH \
           && "$venv/bin/python" -m pip install -q "$whl[local]"; else "$venv/bin/python" -m pip install -q "$whl"; fi
  } >"$log-install.log" 2>&1 || {
    tail -n 30 "$log-install.log" >&2
    summary+=("$(printf '%-14s FAIL  install failed after %ss' "wheel-$kind" "$((SECONDS - t0))")"); failed=1; return; }
  local install_s=$((SECONDS - t0)) size torch_v nvidia
  size=$(du -sm "$venv" | cut -f1)
  torch_v=$("$venv/bin/python" -c 'import importlib.metadata as md
try: print(md.version("torch"))
except md.PackageNotFoundError: print("none")')
  nvidia=$("$venv/bin/python" -m pip list 2>/dev/null | grep -c '^nvidia-' || true)
  local run="$WORK/run-$kind" quick
  mkdir -p "$run/home" "$run/cache"
  quick=$("$PY" - README.md <<'PY'
import re, sys
blocks = re.findall(r"```python\n(.*?)```", open(sys.argv[1], encoding="utf-8").read(), re.S)
print(blocks[0])
PY
)
  printf '%s\n' "$quick" >"$run/quickstart.py"
  local ok=1 t1=$SECONDS strict=""
  # with [local] the packaged model must be used: the hashing fallback's RuntimeWarning is then an error
  if [ "$kind" = local ]; then strict="-W error::RuntimeWarning"; fi
  # shellcheck disable=SC2086  # NET is a command prefix or empty, strict an option or empty
  ( cd "$run" && env -u PYTHONPATH HOME="$run/home" GOODMEMORY_CACHE_DIR="$run/cache" $NET \
      "$venv/bin/python" $strict quickstart.py >"$log-quick1.log" 2>&1 ) || ok=0
  local first_s=$((SECONDS - t1)) t2=$SECONDS
  # shellcheck disable=SC2086
  ( cd "$run" && env -u PYTHONPATH HOME="$run/home" GOODMEMORY_CACHE_DIR="$run/cache" $NET \
      "$venv/bin/python" $strict quickstart.py >"$log-quick2.log" 2>&1 ) || ok=0
  local second_s=$((SECONDS - t2)) t3=$SECONDS
  ( cd "$run" && env -u PYTHONPATH HOME="$run/home" GOODMEMORY_CACHE_DIR="$run/cache" $NET \
      "$venv/bin/goodmemory" eval --smoke --no-progress --out "$run/eval" >"$log-eval.log" 2>&1 ) || ok=0
  local eval_s=$((SECONDS - t3))
  grep -q "<memory-context>" "$log-quick2.log" || ok=0
  [ -f "$run/eval/summary.json" ] || ok=0
  [ -z "$(ls -A "$run/home")" ] || { echo "check_extras: [wheel-$kind] wrote under HOME: $(ls -A "$run/home")" >&2; ok=0; }
  if [ "$kind" = core ] && [ "$torch_v" != none ]; then ok=0; fi
  if [ "$nvidia" != 0 ]; then ok=0; fi
  local verdict=PASS
  if [ $ok = 0 ]; then
    verdict=FAIL; failed=1
    tail -n 20 "$log-quick1.log" "$log-quick2.log" "$log-eval.log" >&2
  fi
  summary+=("$(printf '%-14s %s  venv %s MB, torch %s, %s nvidia-* wheels; install %ss, quickstart %ss then %ss (warm cache), eval --smoke %ss; network %s' \
    "wheel-$kind" "$verdict" "$size" "$torch_v" "$nvidia" "$install_s" "$first_s" "$second_s" "$eval_s" "${NET:-not cut (no unshare)}")")
}

for extra in "${EXTRAS[@]}"; do
  case "$extra" in wheel-core|wheel-local) continue;; esac
  if [ -z "${TESTS[$extra]+x}" ]; then echo "check_extras: no tests known for extra '$extra'" >&2; exit 2; fi
  case " $declared " in *" $extra "*) ;; *) echo "check_extras: pyproject.toml has no extra '$extra'" >&2; exit 2;; esac
done

for extra in "${EXTRAS[@]}"; do
  case "$extra" in wheel-core) check_wheel core; continue;; wheel-local) check_wheel local; continue;; esac
  venv="$WORK/venv-$extra"
  log="$WORK/$extra"
  echo "check_extras: [$extra] installing into $venv" >&2
  t0=$SECONDS
  ok=1
  { "$PY" -m venv "$venv" \
      && "$venv/bin/python" -m pip install -q "$TORCH" \
      && "$venv/bin/python" -m pip install -q -e ".[$extra,local]" pytest; } >"$log-install.log" 2>&1 || ok=0
  install_s=$((SECONDS - t0))
  if [ $ok = 0 ]; then
    tail -n 30 "$log-install.log" >&2
    summary+=("$(printf '%-14s FAIL  install failed after %ss (see above)' "$extra" "$install_s")")
    failed=1
    continue
  fi
  versions=$("$venv/bin/python" - ${UPSTREAM[$extra]} <<'PY'
import importlib.metadata as md, sys
print(", ".join(f"{d} {md.version(d)}" for d in sys.argv[1:]))
PY
)
  torch_v=$("$venv/bin/python" -c 'import importlib.metadata as md; print(md.version("torch"))')
  echo "check_extras: [$extra] testing (${versions}; torch ${torch_v})" >&2
  t1=$SECONDS
  # shellcheck disable=SC2086  # TESTS holds several node ids
  "$venv/bin/python" -m pytest -q -p no:cacheprovider --junitxml="$log.xml" ${TESTS[$extra]} >"$log-tests.log" 2>&1
  rc=$?
  test_s=$((SECONDS - t1))
  counts=$("$venv/bin/python" - "$log.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
try:
    root = ET.parse(sys.argv[1]).getroot()
except (OSError, ET.ParseError):
    print("0 0 0 0")
    raise SystemExit
suites = [root] if root.tag == "testsuite" else list(root.iter("testsuite"))
total = {k: sum(int(s.get(k, 0)) for s in suites) for k in ("tests", "failures", "errors", "skipped")}
print(total["tests"], total["failures"], total["errors"], total["skipped"])
PY
)
  read -r n_tests n_fail n_err n_skip <<<"$counts"
  n_pass=$((n_tests - n_fail - n_err - n_skip))
  if [ $rc = 0 ] && [ "$n_skip" = 0 ] && [ "$n_tests" -gt 0 ]; then
    verdict=PASS
  else
    verdict=FAIL
    failed=1
    tail -n 40 "$log-tests.log" >&2
  fi
  summary+=("$(printf '%-14s %s  %s passed, %s failed, %s errors, %s skipped  install %ss  tests %ss  (%s; torch %s)' \
    "$extra" "$verdict" "$n_pass" "$n_fail" "$n_err" "$n_skip" "$install_s" "$test_s" "$versions" "$torch_v")")
done

echo
echo "check_extras summary (python $("$PY" -c 'import platform; print(platform.python_version())'))"
for line in "${summary[@]}"; do echo "  $line"; done
exit $failed
