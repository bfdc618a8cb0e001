"""The C++ lab's code for the declared models (harness/config/data/declared_models.py): one header,
`declared_models.hpp`, with a struct per declared type (JSONLAB_MODEL, lab/cpp/src/models/model.hpp, which drives the
nlohmann and simdjson On-Demand typed readers and the conversion back to the canonical form), the C++ type of each root,
and the dispatch from a dataset's model ("<space>.<root>") to it (lab/cpp/src/models/typed_models.hpp includes it).

Types follow the declaration as the JSON Schema emitter reads it: integers are std::int64_t (ulong std::uint64_t),
float, double and decimal double, bool bool, enums their numbers (std::int64_t), string, char, dates and Guid
std::string; `T?` is std::optional<T> (null or a T), a plain type admits no null; `T[]` and `List<T>` std::vector,
`Dictionary<string, T>` the lab's Map<T>. Every member may be absent (Maybe<…>), as every other lab allows. A struct is
named `<Space>_<Type>_t` and its members `<Name>_` (the JSON name with the trailing underscore the lab's convention
drops), so no declared name can collide with another space's, a corpus model's, a struct's, a system macro's or a C++
keyword. Every struct is declared before any is defined, and defined after those its members need complete; a type may
hold itself, or another that holds it, in a list or array (a std::vector of an incomplete type is C++17). A space gets
no structs, and its datasets fail in the typed variants with the reason, when a type needs itself (by value, `T?` or in
a dictionary: refused here, not tried), has more than 64 properties (the readers' member mask), or a root is a single
value rather than an object or an array."""

from __future__ import annotations

from harness.config.data.declared_models import DeclaredType, ModelSpace
from harness.config.data.model_types import INTEGER_RANGES, TypeRef

HEADER = "declared_models.hpp"
_SCALARS = {"bool": "bool", "float": "double", "double": "double", "decimal": "double", "ulong": "std::uint64_t"}


def struct_name(space: ModelSpace, type_name: str) -> str:
    """`<Space>_<Type>_t`: ends unlike any member (members end in `_`) and any system macro (M_PI, X_OK)."""
    return f"{space.pascal}_{type_name}_t"


def cpp_type(ref: TypeRef, space: ModelSpace) -> str:
    """The C++ type of one type expression."""
    if ref.kind == "primitive":
        if ref.name in _SCALARS:
            return _SCALARS[ref.name]
        return "std::int64_t" if ref.name in INTEGER_RANGES else "std::string"
    if ref.kind == "named":
        enums = {e.name for e in space.enums}
        return "std::int64_t" if ref.name in enums else struct_name(space, ref.name)
    assert ref.item is not None
    inner = cpp_type(ref.item, space)
    return {"nullable": f"std::optional<{inner}>", "map": f"Map<{inner}>"}.get(ref.kind, f"std::vector<{inner}>")


def needs_complete(ref: TypeRef, types: set[str]) -> set[str]:
    """The declared types a member of this expression needs defined before its struct: those it holds by value or in
    a std::optional or a Map's pairs; a std::vector's element may still be incomplete there (C++17)."""
    if ref.kind == "named":
        return {ref.name} & types
    if ref.kind in ("nullable", "map") and ref.item is not None:
        return needs_complete(ref.item, types)
    return set()


#: The typed readers track members in a 64-bit mask (lab/cpp/src/models/model.hpp).
MAX_MEMBERS = 64


def ordered_types(space: ModelSpace) -> list[DeclaredType] | None:
    """The space's types, each after those it needs complete (every struct is declared first, so one named only in a
    std::vector may come later); None when a type needs itself: no C++ struct can."""
    by_name = {t.name: t for t in space.types}
    names = set(by_name)
    order: list[DeclaredType] = []
    state: dict[str, str] = {}

    def visit(name: str) -> bool:
        state[name] = "open"
        for used in sorted({u for p in by_name[name].properties for u in needs_complete(p.type, names)}):
            if state.get(used) == "open" or (used not in state and not visit(used)):
                return False
        state[name] = "done"
        order.append(by_name[name])
        return True

    return order if all(t.name in state or visit(t.name) for t in space.types) else None


def refusal(space: ModelSpace) -> str | None:
    """Why a space gets no C++ structs (None: it gets them)."""
    if ordered_types(space) is None:
        return "a type needs itself (by value, T? or in a dictionary): no C++ struct can"
    wide = next((t.name for t in space.types if len(t.properties) > MAX_MEMBERS), None)
    if wide is not None:
        return f"type {wide} has more than {MAX_MEMBERS} properties, which the typed readers do not track"
    single = next((root for root, ref in space.roots.items() if ref.kind in ("primitive", "nullable")), None)
    if single is None:
        single = next(
            (r for r, ref in space.roots.items() if ref.kind == "named" and ref.name not in by_type(space)), None
        )
    if single is not None:
        return f"root {single} is a single value, not an object or an array"
    return None


def by_type(space: ModelSpace) -> set[str]:
    return {t.name for t in space.types}


def _space_text(space: ModelSpace) -> list[str]:
    lines = [f"// ---- {space.name} (datasets/{space.source}) ----"]
    why = refusal(space)
    types = ordered_types(space)
    if why is not None or types is None:
        return lines + [f"// no C++ structs: {why}", ""]
    lines += [f"struct {struct_name(space, t.name)};" for t in space.types] + [""]
    for declared in types:
        macro = f"JSONLAB_DECLARED_{struct_name(space, declared.name)}"
        members = [f"    F(Maybe<{cpp_type(p.type, space)}>, {p.name}_)" for p in declared.properties]
        lines.append(f"#define {macro}(F) \\")
        lines += [line + " \\" for line in members[:-1]] + members[-1:]
        lines += [f"JSONLAB_MODEL({struct_name(space, declared.name)}, {macro})", ""]
    return lines


def header(spaces: list[ModelSpace]) -> str:
    """The whole header: structs per space, the names of the models, and the dispatch."""
    usable = [s for s in spaces if refusal(s) is None]
    models = [(f"{s.name}.{root}", cpp_type(ref, s)) for s in usable for root, ref in s.roots.items()]
    refused = [f"{s.name}.{root}" for s in spaces if s not in usable for root in s.roots]
    lines = [
        "// Generated by the harness from datasets/models/*.toml (harness/codegen/cpp.py) before every build of",
        "// this lab; never edited, never committed. The declared models as C++ structs for the typed variants.",
        "#pragma once",
        "",
        "#include <cstdint>",
        "#include <optional>",
        "#include <string>",
        "#include <vector>",
        "",
        '#include "../../lab_error.hpp"',
        '#include "../model.hpp"',
        "",
        "namespace jsonlab::models {",
        "",
    ]
    for space in spaces:
        lines += _space_text(space)
    names = ", ".join(f'"{name}"' for name in [*(name for name, _ in models), *refused])
    lines += [
        f"inline const std::vector<std::string> DECLARED_MODELS = {{{names}}};",
        "",
        "// f(ModelTag<the declared model's root type>{}) for a dataset's manifest model.",
        "template <typename F>",
        "auto with_declared_model(const std::string& model, F&& f) -> decltype(f(ModelTag<int>{})) {",
    ]
    lines += [f'    if (model == "{name}") return f(ModelTag<{text}>{{}});' for name, text in models]
    for space in spaces:
        if (why := refusal(space)) is not None:
            for root in space.roots:
                lines += [
                    f'    if (model == "{space.name}.{root}")',
                    f"        throw LabError(\"declared model '{space.name}.{root}' has no C++ struct: {why}\",",
                    '                       "docs/cpp-lab.md says what the typed C++ variants read");',
                ]
    lines += [
        '    throw LabError("no typed model for model \'" + model + "\'",',
        "                   \"declare it in datasets/models/<space>.toml (docs/experiments.md, 'Models as data')\");",
        "}",
        "",
        "}  // namespace jsonlab::models",
        "",
    ]
    return "\n".join(lines)


def lab_files(spaces: list[ModelSpace]) -> dict[str, str]:
    return {HEADER: header(spaces)}
