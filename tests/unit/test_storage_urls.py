"""Storage URLs as users paste them: the PostgreSQL spellings hosting providers hand out reach the psycopg
driver, and an error about a URL never repeats its password."""

from __future__ import annotations

import pytest

from goodmemory import create_good_memory
from goodmemory.errors import InvalidInputError
from goodmemory.storage._url import psycopg_url, redact_url


@pytest.mark.parametrize("url", ["postgres://u:p@h:5432/db", "postgresql://u:p@h:5432/db",
                                 "postgresql+psycopg://u:p@h:5432/db"])
def test_postgres_spellings_use_psycopg(url: str) -> None:
    assert psycopg_url(url) == "postgresql+psycopg://u:p@h:5432/db"


def test_other_urls_are_left_alone() -> None:
    assert psycopg_url("sqlite:///x.db") == "sqlite:///x.db"
    assert redact_url("mysql://root:hunter2@db/x") == "mysql://db/x"


def test_an_unsupported_url_error_does_not_repeat_its_password() -> None:
    with pytest.raises(InvalidInputError) as err:
        create_good_memory("mysql://root:s3cr3t-pw@db.internal/app")
    assert "s3cr3t-pw" not in str(err.value) and "mysql://db.internal/app" in str(err.value)
