"""Loading the persona fixtures into validated cases (one case per probe)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import ValidationError

from .schema import Persona, Probe, Scenario

__all__ = ["Case", "FixtureError", "default_fixtures_dir", "load_cases", "load_pairs"]


class FixtureError(ValueError):
    """A fixture file is missing, unreadable or fails its schema."""


@dataclass(frozen=True)
class Case:
    persona: Persona
    scenario: Scenario
    probe: Probe

    @property
    def case_id(self) -> str:
        return f"{self.persona.persona_id}__{self.probe.probe_id}"


def default_fixtures_dir() -> Path:
    """The repository's fixtures/ in a checkout; the copy a wheel ships (setup.py) in a pip install."""
    repo = Path(__file__).resolve().parents[3] / "fixtures"
    packaged = Path(__file__).resolve().parent / "_fixtures"
    return repo if repo.is_dir() or not packaged.is_dir() else packaged


def _load(path: Path) -> object:
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise FixtureError(f"{path}: {exc}") from exc


def load_pairs(root: Path | None = None) -> list[tuple[Persona, Scenario]]:
    root = root or default_fixtures_dir()
    pdir, sdir = root / "personas", root / "scenarios"
    if not pdir.is_dir() or not sdir.is_dir():
        raise FixtureError(f"{root} must hold personas/ and scenarios/")
    pairs: list[tuple[Persona, Scenario]] = []
    for ppath in sorted(pdir.glob("*.yaml")):
        spath = sdir / ppath.name
        if not spath.exists():
            raise FixtureError(f"{ppath.name}: no scenario file {spath}")
        try:
            persona = Persona.model_validate(_load(ppath))
            scenario = Scenario.model_validate(_load(spath))
        except ValidationError as exc:
            raise FixtureError(f"{ppath.stem}: {exc}") from exc
        if persona.persona_id != ppath.stem or scenario.persona_id != persona.persona_id:
            raise FixtureError(f"{ppath.stem}: persona_id must equal the file stem in both files")
        pairs.append((persona, scenario))
    return pairs


def load_cases(root: Path | None = None, *, personas: list[str] | None = None) -> list[Case]:
    cases: list[Case] = []
    for persona, scenario in load_pairs(root):
        if personas is not None and persona.persona_id not in personas:
            continue
        cases.extend(Case(persona, scenario, probe) for probe in scenario.probes)
    return cases
