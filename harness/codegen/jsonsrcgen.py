"""JsonSrcGen twins of the declared models (harness/codegen/csharp.py writes them into each space's file and the
registry): `[Json]` classes in `<Space>.JsonSrcGenTwin` (binding `jsonsrcgen`), the assembly's JsonList / JsonArray
attributes for every list and array they use, and the dispatch the JsonSrcGen adapter calls for a type that is not its
hand-written SimpleSrcGenModel[] (lab/dotnet/src/Adapters/JsonSrcGenAdapter.cs: DeclaredDeserialize, DeclaredSerialize).

JsonSrcGen generates its code at compile time from those attributes. Twins are made only of the kinds this lab has
verified JsonSrcGen 1.1.1 reads and writes (bool, byte, short, ushort, int, uint, long, float, double, string,
DateTime, Guid, their `T?`, [Json] classes, arrays and lists of them: datasets/models/jsonsrcgen-kinds.toml), because a
member its generator cannot handle (sbyte, an enum) stops it for the whole lab; a space with any other kind (decimal,
char, ulong, DateTimeOffset, dictionaries, a container of containers, `T?` elements), a property named like a C#
keyword (JsonSrcGen writes its name unescaped), or a root that is a single value gets no twin, and its datasets fail
the `jsonsrcgen` check with the reason."""

from __future__ import annotations

from harness.config.data.clr_names import KEYWORDS
from harness.config.data.declared_models import ModelSpace
from harness.config.data.model_types import TypeRef

#: The primitives JsonSrcGen 1.1.1 documents, and the nullable value types among them.
KINDS = frozenset({"bool", "byte", "short", "ushort", "int", "uint", "long", "float", "double", "string", "DateTime"})
KINDS = KINDS | {"Guid"}
TWIN = "JsonSrcGenTwin"
JSONSRCGEN = "global::JsonSrcGen"


def _unsupported(ref: TypeRef, space: ModelSpace, inside: bool = False) -> str | None:
    """The first kind in an expression JsonSrcGen does not read here (None when it reads all of it)."""
    enums = {e.name for e in space.enums}
    if ref.kind == "primitive":
        return None if ref.name in KINDS else ref.name
    if ref.kind == "named":
        return f"enum {ref.name}" if ref.name in enums else None
    if ref.kind == "nullable":
        return f"{ref.text()} in a container" if inside else _unsupported(ref.item, space)  # type: ignore[arg-type]
    if ref.kind == "map":
        return "Dictionary<string, …>"
    if inside:
        return "a container of containers"
    return _unsupported(ref.item, space, inside=True)  # type: ignore[arg-type]


def unsupported(space: ModelSpace) -> str | None:
    """Why a space gets no JsonSrcGen twin ("" never; None when it gets one)."""
    for declared in space.types:
        if (how := space.code.construction_of(declared.name)) != "settable":
            built = (
                "a positional record, read through its constructor"
                if how == "positional"
                else "built with init-only setters"
            )
            return f"{declared.name} is {built}; JsonSrcGen 1.1.1 sets settable properties only"
        for prop in declared.properties:
            if prop.name in KEYWORDS:
                return (
                    f"{declared.name}.{prop.name} is named like a C# keyword, which JsonSrcGen 1.1.1 writes unescaped"
                )
            if (kind := _unsupported(prop.type, space)) is not None:
                return (
                    f"{declared.name}.{prop.name} is {prop.type.text()} ({kind}), which JsonSrcGen 1.1.1 does not read"
                )
    for root, ref in space.roots.items():
        if ref.kind == "primitive" or (ref.kind == "named" and ref.name not in {t.name for t in space.types}):
            return f"root {root} is a single value ({ref.text()}), which has no JsonSrcGen converter here"
        if (kind := _unsupported(ref, space)) is not None:
            return f"root {root} is {ref.text()} ({kind}), which JsonSrcGen 1.1.1 does not read"
    return None


def containers(ref: TypeRef, type_text) -> list[str]:
    """The assembly attributes an expression needs: JsonList(typeof(T)) for a List<T>, JsonArray for a T[]."""
    if ref.kind in ("list", "array") and ref.item is not None:
        attribute = "JsonList" if ref.kind == "list" else "JsonArray"
        return [f"[assembly: {JSONSRCGEN}.{attribute}(typeof({type_text(ref.item)}))]"]
    if ref.kind == "nullable" and ref.item is not None:
        return containers(ref.item, type_text)
    return []


def dispatch(roots: list[tuple[str, TypeRef]]) -> list[str]:
    """The adapter's partial methods: each twin root type's read and write calls (T: its twin type)."""
    lines = ["namespace JsonLab.Adapters", "{", "    public sealed partial class JsonSrcGenAdapter", "    {"]
    lines.append(
        "        static partial void DeclaredDeserialize<T>(string text, byte[] utf8, bool fromUtf8, "
        "ref global::System.Func<T?>? call)"
    )
    lines.append("        {")
    for text, ref in roots:
        new = f"new {text[:-2]}[0]" if ref.kind == "array" else f"new {text}()"
        if ref.kind in ("array", "list"):  # read into a new one, returned (a JSON null: null)
            text_call, utf8_call = f"Converter.FromJson({new}, text)", f"Converter.FromJson({new}, utf8)"
        else:  # a class is filled in place
            text_call = f"{{ var value = {new}; Converter.FromJson(value, text); return value; }}"
            utf8_call = f"{{ var value = {new}; Converter.FromJson(value, utf8); return value; }}"
        lines += [
            f"            if (typeof(T) == typeof({text}))",
            "            {",
            f"                global::System.Func<{text}?> read = fromUtf8",
            f"                    ? () => {utf8_call}",
            f"                    : () => {text_call};",
            "                call = (global::System.Func<T?>)(object)read;",
            "                return;",
            "            }",
        ]
    lines += ["        }", ""]
    lines.append(
        "        static partial void DeclaredSerialize<T>(T value, bool toUtf8, ref global::System.Func<object>? call)"
    )
    lines.append("        {")
    for index, (text, _) in enumerate(roots):
        lines += [
            f"            if (value is {text} v{index})",
            "            {",
            f"                call = toUtf8 ? () => Converter.ToJsonUtf8(v{index}).ToArray()"
            f" : (global::System.Func<object>)(() => Converter.ToJson(v{index}).ToString());",
            "                return;",
            "            }",
        ]
    lines += ["        }", "    }", "}", ""]
    return lines
