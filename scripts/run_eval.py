"""Run the GoodMemory evaluation. See ``python scripts/run_eval.py --help``.

    python scripts/run_eval.py --smoke          # a few personas, about a minute, offline, smoke gate
    python scripts/run_eval.py                  # all personas, offline (deterministic answerer, rule judge)
    python scripts/run_eval.py --candidate empty --baseline current-session   # any system against any other
    python scripts/run_eval.py --live           # LLM answerer and judge via OPENAI_BASE_URL / OPENAI_API_KEY
    python scripts/run_eval.py --fallback       # live where the endpoint answers, offline per case elsewhere
    python scripts/run_eval.py --summarize reports/eval/RUN   # rebuild summary, failures and report.md

Exit code 1 when the release gate (eval/gate.yaml) fails; the failed lines are printed.
    python scripts/run_eval.py --suite user-memory --mode compare --metric keyword-recall
    python scripts/run_eval.py --suite locomo --data ../shared/data/locomo/locomo10.json
"""

import sys

from goodmemory.eval.cli import main

if __name__ == "__main__":
    sys.exit(main())
