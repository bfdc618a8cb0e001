"""The C++ lab's code for the declared models (harness/config/declared_models.py): one header,
`declared_models.hpp`, with a struct per declared type (JSONLAB_MODEL, lab/cpp/src/models/model.hpp, which drives the
nlohmann and simdjson On-Demand typed readers and the conversion back to the canonical form), the C++ type of each root,
and the dispatch from a dataset's model ("<space>.<root>") to it (lab/cpp/src/models/typed_models.hpp includes it).

Types follow the declaration as the JSON Schema emitter reads it: integers are std::int64_t (ulong std::uint64_t),
float, double and decimal double, bool bool, enums their numbers (std::int64_t), string, char, dates and Guid
std::string; `T?` is std::optional<T> (null or a T), a plain type admits no null; `T[]` and `List<T>` std::vector,
`Dictionary<string, T>` the lab's Map<T>. Every member may be absent (Maybe<…>), as every other lab allows. A struct is
named `<Space>_<Type>` and its members `<Name>_` (the JSON name with the trailing underscore the lab's convention
drops), so no declared name can collide with another space's, a corpus model's or a C++ keyword. Structs come in the
order their members need them complete; a type may hold itself in a list or array (a std::vector of an incomplete type
is C++17), but a space whose type needs itself (directly or through others: by value, `T?` or in a dictionary) cannot
be C++ values: it gets no structs, and its datasets fail in the typed variants with that reason."""

from __future__ import annotations

from harness.config.declared_models import DeclaredType, ModelSpace
from harness.config.model_types import INTEGER_RANGES, TypeRef

HEADER = "declared_models.hpp"
_SCALARS = {"bool": "bool", "float": "double", "double": "double", "decimal": "double", "ulong": "std::uint64_t"}


def struct_name(space: ModelSpace, type_name: str) -> str:
    return f"{space.pascal}_{type_name}"


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


def ordered_types(space: ModelSpace) -> list[DeclaredType] | None:
    """The space's types, each after those it needs complete and, where that leaves the choice, after those it names
    in a std::vector too (None when a type needs itself: no C++ struct can)."""
    by_name = {t.name: t for t in space.types}
    names = set(by_name)
    strong = {n: {u for p in t.properties for u in needs_complete(p.type, names)} for n, t in by_name.items()}
    reach = {n: _closure(n, strong) for n in names}
    order: list[DeclaredType] = []
    state: dict[str, str] = {}

    def visit(name: str) -> bool:
        state[name] = "open"
        for prop in by_name[name].properties:
            for used in sorted(prop.type.named() & names):
                if used in strong[name]:
                    if state.get(used) == "open" or (used not in state and not visit(used)):
                        return False
                elif used not in state and not reach[used] & {n for n, s in state.items() if s == "open"}:
                    if not visit(used):  # named only in a std::vector: defined first where nothing open needs it
                        return False
        state[name] = "done"
        order.append(by_name[name])
        return True

    return order if all(t.name in state or visit(t.name) for t in space.types) else None


def _closure(start: str, edges: dict[str, set[str]]) -> set[str]:
    """Every type reachable from `start` along `edges` (itself only through a cycle)."""
    seen: set[str] = set()
    todo = list(edges[start])
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo += edges[name]
    return seen


def _space_text(space: ModelSpace) -> list[str]:
    types = ordered_types(space)
    lines = [f"// ---- {space.name} (datasets/{space.source}) ----"]
    if types is None:
        return lines + ["// a type holds itself: no C++ struct can; its datasets fail in the typed variants", ""]
    for declared in types:
        macro = f"JSONLAB_DECLARED_{space.pascal.upper()}_{declared.name.upper()}"
        members = [f"    F(Maybe<{cpp_type(p.type, space)}>, {p.name}_)" for p in declared.properties]
        lines.append(f"#define {macro}(F) \\")
        lines += [line + " \\" for line in members[:-1]] + members[-1:]
        lines += [f"JSONLAB_MODEL({struct_name(space, declared.name)}, {macro})", ""]
    return lines


def header(spaces: list[ModelSpace]) -> str:
    """The whole header: structs per space, the names of the models, and the dispatch."""
    usable = [s for s in spaces if ordered_types(s) is not None]
    models = [(f"{s.name}.{root}", cpp_type(ref, s)) for s in usable for root, ref in s.roots.items()]
    refused = [f"{s.name}.{root}" for s in spaces if s not in usable for root in s.roots]
    lines = [
        "// Generated by the harness from datasets/models/*.toml (harness/tools/emit_cpp.py) before every build of",
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
    for name in refused:
        lines += [
            f'    if (model == "{name}")',
            f"        throw LabError(\"declared model '{name}' has a type that needs itself: no C++ struct can\",",
            '                       "the typed C++ variants read it once the type holds itself only in a list");',
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
