"""The ``goodmemory`` command group, taking its global options (``--url``, ``--user-id``, ``-o``) after the
command as well as before it: ``goodmemory doctor -o json`` works like ``goodmemory -o json doctor``.

Click reads a group's options only before the command name, so the group moves the global options it finds
after the command to before it, first reading the command's own options so that an option's value (or
anything after ``--``) is never taken for a global option. Commands that pass their arguments on untouched
(``eval``, ``bench``) keep all of them.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperGroup

__all__ = ["GlobalOptionsAnywhere"]


def _value_options(command: Any) -> set[str]:
    """The option names of ``command`` that take a value (the next argument is theirs)."""
    names: set[str] = set()
    for p in command.params:
        if p.param_type_name == "option" and not p.is_flag and not p.count:
            names.update(p.opts)
    return names


class GlobalOptionsAnywhere(TyperGroup):
    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, self._hoist(ctx, list(args)))

    def _hoist(self, ctx: Any, args: list[str]) -> list[str]:
        own = _value_options(self)
        i = 0
        while i < len(args) and args[i].startswith("-") and args[i] != "--":
            i += 2 if args[i] in own else 1
        if i >= len(args) or args[i] == "--":
            return args
        command = self.get_command(ctx, args[i])
        if command is None or command.context_settings.get("ignore_unknown_options"):
            return args
        theirs = _value_options(command)
        short = {o for o in own if len(o) == 2}  # -u, -o: also written with the value attached (-ojson)
        head, rest, moved = args[:i + 1], args[i + 1:], []
        kept: list[str] = []
        j = 0
        while j < len(rest):
            tok = rest[j]
            if tok == "--":
                kept.extend(rest[j:])
                break
            name = tok.split("=", 1)[0]
            if tok in own and j + 1 < len(rest):
                moved += rest[j:j + 2]
                j += 2
            elif (name in own and "=" in tok and name.startswith("--")) or (tok[:2] in short and len(tok) > 2):
                moved.append(tok)
                j += 1
            elif tok in theirs and j + 1 < len(rest):
                kept += rest[j:j + 2]
                j += 2
            else:
                kept.append(tok)
                j += 1
        return head[:i] + moved + head[i:] + kept
