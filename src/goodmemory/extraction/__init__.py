"""Extractors: turn conversation turns into candidate memories."""

from .base import ExtractionContext, Extractor

__all__ = ["ExtractionContext", "Extractor"]
