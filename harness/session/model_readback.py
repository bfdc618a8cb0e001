"""What a lab built from the declared models, checked against the model files before anything is timed: a lab whose
`list` reads its models back (the .NET lab: each class's construction and the declared source-generation context's
options, from the compiled types: lab/dotnet/src/Models/ModelReadback.cs) must have built what each file says, or the
cells would measure something the write-up's code was not."""

from __future__ import annotations

from harness.config.data.declared_models import ModelSpace
from harness.model.errors import HarnessError
from harness.model.json_value import JsonMapping
from harness.session.processes.probe import members

_FIX = (
    "the lab's code for declared models is out of step with the model file: rebuild the lab (`python3 -m harness "
    "models`, then the run); if it persists, the emitter (harness/codegen/csharp.py) has a fault"
)


def check_model_readback(lab: str, listing: JsonMapping, spaces: list[ModelSpace]) -> None:
    """Each declared model the listing reads back: every class it reaches built as [construction] says, its context's
    options as [sourcegen] says (the mode aside). A listing without read-backs (another lab) passes."""
    listed = {m.get("name"): m for m in members(listing.get("models") or []) if isinstance(m, dict)}
    for space in spaces:
        for model in space.model_names():
            entry = listed.get(model) or {}
            built = entry.get("construction")
            for declared in space.types:
                want = space.code.construction_of(declared.name)
                if isinstance(built, dict) and declared.name in built and built[declared.name] != want:
                    raise HarnessError(
                        f"lab {lab} built {declared.name} of model {model} {built[declared.name]}, but "
                        f"datasets/{space.source} [construction] says {want}",
                        _FIX,
                    )
            context = entry.get("source_gen")
            if context is not None and context != (want_context := space.code.sourcegen.describe(with_mode=False)):
                raise HarnessError(
                    f"lab {lab}'s source-generation context of model {model} has options {context or 'none'!r}, but "
                    f"datasets/{space.source} [sourcegen] says {want_context or 'none'!r}",
                    _FIX,
                )
