"""The evaluation harness: persona A/B replay, external suites, judges and reports."""
