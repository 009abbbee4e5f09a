"""The one place GoodMemory talks to an OpenAI-compatible chat endpoint.

This module owns :class:`LLMConfig` (endpoint, key, model, timeout and retry
settings, with environment fallbacks) and :class:`LLMClient`, a thin wrapper
around ``openai.OpenAI`` that adds deterministic retries with exponential
backoff, JSON output parsing and pydantic validation. The ``openai`` client
is created with ``max_retries=0`` so every retry is ours and visible.

Every failure leaves as :class:`goodmemory.errors.LLMError` whose message
names the endpoint and the last cause; ``openai`` and ``httpx`` exceptions
never escape raw (they are chained as ``__cause__``).
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import openai
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..errors import ConfigurationError, InvalidInputError, LLMError

__all__ = ["DEFAULT_MODEL", "LLMClient", "LLMConfig", "parse_json_reply"]

log = logging.getLogger(__name__)

DEFAULT_MODEL = "gpt-4o-mini"
_OPENAI_URL = "https://api.openai.com/v1"
_NO_KEY = "not-needed"  # local OpenAI-compatible servers ignore the key, the client insists on one

T = TypeVar("T", bound=BaseModel)
R = TypeVar("R")

JSON_INSTRUCTION = (
    "Reply with a single JSON object and nothing else: no prose, no explanations, no code fences. "
    "It must validate against this JSON schema:\n{schema}"
)
JSON_REPAIR_INSTRUCTION = (
    "Your previous reply could not be used: {error}. Reply again with only the JSON object, "
    "matching the schema exactly."
)


def _env(*names: str) -> str | None:
    for name in names:
        value = os.environ.get(name)
        if value and value.strip():
            return value.strip()
    return None


class LLMConfig(BaseModel):
    """Settings for an OpenAI-compatible endpoint.

    Unset fields fall back to the environment when the config is created:
    ``base_url`` to ``OPENAI_BASE_URL``, ``api_key`` to ``OPENAI_API_KEY``,
    ``model`` to ``GOODMEMORY_LLM_MODEL`` then ``OPENAI_MODEL`` then
    ``gpt-4o-mini``. ``base_url=None`` means the OpenAI API itself.

    ``max_retries`` counts retries after the first attempt; the wait before
    retry *n* is ``backoff_s * 2**(n-1)`` capped at ``max_backoff_s``.
    ``use_json_schema`` sends ``response_format={"type": "json_schema", ...}``
    for JSON calls; an endpoint that rejects it (HTTP 400) is retried once
    without it and remembered as not supporting it. The JSON instruction is
    always in the prompt as well.
    """

    model_config = ConfigDict(extra="forbid")

    base_url: str | None = Field(default_factory=lambda: _env("OPENAI_BASE_URL"))
    api_key: str | None = Field(default_factory=lambda: _env("OPENAI_API_KEY"), repr=False)
    model: str = Field(default_factory=lambda: _env("GOODMEMORY_LLM_MODEL", "OPENAI_MODEL") or DEFAULT_MODEL)
    timeout_s: float = Field(default=30.0, gt=0)
    max_retries: int = Field(default=2, ge=0)
    backoff_s: float = Field(default=0.5, ge=0)
    max_backoff_s: float = Field(default=8.0, ge=0)
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    use_json_schema: bool = True

    @property
    def endpoint(self) -> str:
        """The base URL actually used (the OpenAI API when ``base_url`` is unset)."""
        return (self.base_url or _OPENAI_URL).rstrip("/")


class _RetryableError(Exception):
    """Internal: this attempt failed in a way worth retrying."""

    def __init__(self, cause: str, *, retry_after: float | None = None) -> None:
        super().__init__(cause)
        self.cause = cause
        self.retry_after = retry_after


class _FatalError(Exception):
    """Internal: this attempt failed in a way retrying cannot fix."""


class _UnsupportedResponseFormat(Exception):
    """Internal: the endpoint rejected ``response_format``."""


_FENCE = re.compile(r"```[ \t]*(?:json|JSON|javascript)?[ \t]*\r?\n?(.*?)```", re.DOTALL)


def parse_json_reply(text: str) -> Any:
    """Parse a model's JSON reply, tolerating code fences and surrounding prose.

    Tries, in order: the whole text; the first fenced block (```json ... ```);
    the span from the first ``{`` to the last ``}``. Raises ``ValueError``.
    """
    stripped = text.strip()
    candidates: list[str] = [stripped]
    fenced = _FENCE.search(stripped)
    if fenced:
        candidates.append(fenced.group(1).strip())
    elif stripped.startswith("```"):  # an unterminated fence
        candidates.append(re.sub(r"^```[a-zA-Z]*\s*", "", stripped))
    start, end = stripped.find("{"), stripped.rfind("}")
    if 0 <= start < end:
        candidates.append(stripped[start : end + 1])
    last_error: ValueError | None = None
    for candidate in candidates:
        if not candidate:
            continue
        try:
            return json.loads(candidate)
        except ValueError as exc:
            last_error = exc
    if last_error is None:
        raise ValueError("the reply was empty")
    raise ValueError(f"the reply is not valid JSON ({last_error})")


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _status_cause(exc: openai.APIStatusError) -> str:
    message = ""
    body = exc.body
    if isinstance(body, Mapping):
        err = body.get("error", body)
        message = str(err.get("message", "")) if isinstance(err, Mapping) else str(err)
    elif body is not None:
        message = str(body)
    return f"HTTP {exc.status_code}" + (f": {_short(message)}" if message else "")


def _retry_after(exc: openai.APIStatusError) -> float | None:
    try:
        value = exc.response.headers.get("retry-after")
        return float(value) if value is not None else None
    except (AttributeError, TypeError, ValueError):
        return None


class LLMClient:
    """A chat client for any OpenAI-compatible endpoint, with our own retries.

    Args:
        config: endpoint settings; ``LLMConfig()`` (environment) when omitted.
        sleep: how to wait between retries (tests may pass a no-op).
        **overrides: field overrides applied on top of ``config``.

    Use :meth:`complete` for text and :meth:`complete_json` for validated
    structured output. Close with :meth:`close` or use as a context manager.
    """

    def __init__(
        self,
        config: LLMConfig | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
        **overrides: Any,
    ) -> None:
        base = config or LLMConfig()
        if overrides:
            try:
                base = LLMConfig.model_validate({**base.model_dump(), **overrides})
            except ValidationError as exc:
                raise ConfigurationError(f"invalid LLM settings: {exc}") from exc
        self.config = base
        api_key = base.api_key
        if not api_key:
            if base.base_url is None:
                raise ConfigurationError(
                    "no API key for the OpenAI API: set OPENAI_API_KEY or LLMConfig(api_key=...), "
                    "or point OPENAI_BASE_URL / LLMConfig(base_url=...) at a local endpoint"
                )
            api_key = _NO_KEY
        self._sleep = sleep
        self._json_schema_supported = base.use_json_schema
        try:
            self._client = openai.OpenAI(
                base_url=base.endpoint,
                api_key=api_key,
                timeout=base.timeout_s,
                max_retries=0,
            )
        except openai.OpenAIError as exc:
            raise ConfigurationError(f"cannot create the LLM client for {base.endpoint}: {exc}") from exc

    # -- lifecycle ------------------------------------------------------------------
    @property
    def endpoint(self) -> str:
        return self.config.endpoint

    @property
    def model(self) -> str:
        return self.config.model

    def close(self) -> None:
        """Close the HTTP connection pool."""
        self._client.close()

    def __enter__(self) -> LLMClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"LLMClient(endpoint={self.endpoint!r}, model={self.model!r})"

    # -- public calls ---------------------------------------------------------------
    def complete(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        model: str | None = None,
        response_format: Mapping[str, Any] | None = None,
        temperature: float | None = None,
    ) -> str:
        """One chat completion; returns the assistant's text.

        Retries timeouts, connection errors, HTTP 408/409/429/5xx and empty
        replies; raises :class:`LLMError` after ``max_retries`` retries, or at
        once on other HTTP errors (401, 404, ...).
        """
        chat = self._normalise(messages)

        def attempt(_: int) -> str:
            return self._call(chat, model=model, response_format=response_format, temperature=temperature)

        return self._with_retries(attempt, model=model)

    def complete_json(
        self,
        messages: Sequence[Mapping[str, Any]],
        schema: type[T],
        *,
        model: str | None = None,
        temperature: float | None = None,
        schema_name: str | None = None,
    ) -> T:
        """A chat completion parsed as JSON and validated into ``schema``.

        The JSON schema is put in the prompt, and also sent as
        ``response_format`` when the endpoint supports it. Malformed JSON and
        validation errors are retried like transport errors (the model is told
        what was wrong); code-fenced JSON is accepted.
        """
        json_schema = schema.model_json_schema()
        chat = self._with_json_instruction(self._normalise(messages), json_schema)
        name = re.sub(r"[^a-zA-Z0-9_-]", "_", schema_name or schema.__name__)[:64] or "response"
        response_format = {
            "type": "json_schema",
            "json_schema": {"name": name, "schema": json_schema, "strict": False},
        }
        repair: list[dict[str, Any]] = []

        def attempt(_: int) -> T:
            text = self._call(
                chat + repair,
                model=model,
                response_format=response_format if self._json_schema_supported else None,
                temperature=temperature,
                json_call=True,
            )
            try:
                data = parse_json_reply(text)
                return schema.model_validate(data)
            except (ValueError, ValidationError) as exc:
                error = _short(str(exc), 400)
                repair[:] = [
                    {"role": "assistant", "content": text[:2000]},
                    {"role": "user", "content": JSON_REPAIR_INSTRUCTION.format(error=error)},
                ]
                kind = "invalid JSON" if not isinstance(exc, ValidationError) else "JSON failing validation"
                raise _RetryableError(f"{kind}: {error}") from exc

        return self._with_retries(attempt, model=model)

    # -- internals --------------------------------------------------------------------
    @staticmethod
    def _normalise(messages: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for i, message in enumerate(messages):
            if hasattr(message, "model_dump"):
                message = message.model_dump(exclude_none=True)  # a goodmemory Message
            if not isinstance(message, Mapping) or "role" not in message or "content" not in message:
                raise InvalidInputError(f"message {i} must be a mapping with 'role' and 'content'")
            entry: dict[str, Any] = {"role": str(message["role"]), "content": message["content"]}
            if message.get("name"):
                entry["name"] = str(message["name"])
            out.append(entry)
        if not out:
            raise InvalidInputError("no messages to send to the LLM")
        return out

    @staticmethod
    def _with_json_instruction(
        chat: list[dict[str, Any]], json_schema: dict[str, Any]
    ) -> list[dict[str, Any]]:
        instruction = JSON_INSTRUCTION.format(schema=json.dumps(json_schema, separators=(",", ":")))
        chat = [dict(m) for m in chat]
        if chat[0]["role"] == "system" and isinstance(chat[0]["content"], str):
            chat[0]["content"] = f"{chat[0]['content']}\n\n{instruction}"
        else:
            chat.insert(0, {"role": "system", "content": instruction})
        return chat

    def _call(
        self,
        chat: list[dict[str, Any]],
        *,
        model: str | None,
        response_format: Mapping[str, Any] | None,
        temperature: float | None,
        json_call: bool = False,
    ) -> str:
        kwargs: dict[str, Any] = {
            "model": model or self.config.model,
            "messages": chat,
            "temperature": self.config.temperature if temperature is None else temperature,
        }
        if response_format is not None:
            kwargs["response_format"] = dict(response_format)
        try:
            response = self._client.chat.completions.create(**kwargs)
        except openai.APITimeoutError as exc:
            raise _RetryableError(f"timed out after {self.config.timeout_s:g}s") from exc
        except openai.APIConnectionError as exc:
            raise _RetryableError(f"connection failed ({_short(str(exc))})") from exc
        except openai.APIStatusError as exc:
            status = exc.status_code
            if status == 429 or status >= 500 or status in (408, 409):
                raise _RetryableError(_status_cause(exc), retry_after=_retry_after(exc)) from exc
            if json_call and response_format is not None and status in (400, 422):
                raise _UnsupportedResponseFormat(_status_cause(exc)) from exc
            raise _FatalError(_status_cause(exc)) from exc
        except openai.OpenAIError as exc:  # malformed response bodies and the like
            raise _RetryableError(f"bad response ({_short(str(exc))})") from exc
        except (ValueError, TypeError) as exc:  # e.g. a non-JSON 200 body
            raise _RetryableError(f"unreadable response ({_short(str(exc))})") from exc
        try:
            choices = response.choices
            content = choices[0].message.content if choices else None
        except (AttributeError, IndexError, TypeError) as exc:
            raise _RetryableError("response had no choices") from exc
        if content is None or not str(content).strip():
            raise _RetryableError("empty reply")
        return str(content)

    def _with_retries(self, attempt: Callable[[int], R], *, model: str | None) -> R:
        attempts = self.config.max_retries + 1
        n = 0
        last_cause = "no attempt made"
        last_exc: BaseException | None = None
        downgraded = False
        while n < attempts:
            n += 1
            try:
                return attempt(n)
            except _FatalError as exc:
                raise LLMError(self._message(model, n, exc.args[0])) from exc.__cause__
            except _UnsupportedResponseFormat as exc:
                if downgraded:
                    raise LLMError(self._message(model, n, exc.args[0])) from exc.__cause__
                log.info(
                    "%s rejected response_format=json_schema (%s); retrying without it", self.endpoint, exc
                )
                self._json_schema_supported = False
                downgraded = True
                n -= 1  # a capability probe, not a failed attempt
                continue
            except _RetryableError as exc:
                last_cause = exc.cause
                last_exc = exc.__cause__ or exc
                if n >= attempts:
                    break
                delay = min(self.config.backoff_s * (2 ** (n - 1)), self.config.max_backoff_s)
                if exc.retry_after is not None:
                    delay = min(max(delay, exc.retry_after), self.config.max_backoff_s)
                log.warning(
                    "LLM call to %s failed (attempt %d/%d: %s); retrying in %.2fs",
                    self.endpoint,
                    n,
                    attempts,
                    last_cause,
                    delay,
                )
                if delay > 0:
                    self._sleep(delay)
        raise LLMError(self._message(model, n, last_cause)) from last_exc

    def _message(self, model: str | None, attempts: int, cause: str) -> str:
        return (
            f"LLM call to {self.endpoint} (model {model or self.config.model!r}) failed after "
            f"{attempts} attempt{'s' if attempts != 1 else ''}: {cause}"
        )
