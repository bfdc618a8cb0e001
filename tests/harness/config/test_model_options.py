"""What a model file says of the publisher's code (harness/config/data/model_options.py): [construction], [sourcegen]
and [converters] read and checked as untrusted input, the C# each becomes (harness/codegen/csharp.py), the JsonSrcGen
twin left out with its reason, and the lab's read-back compared with the file (harness/session/model_readback.py).
That each library honours them is tested on the real lab: tests/e2e/test_publisher_code_real.py."""

from __future__ import annotations

import pytest

from harness.codegen.csharp import space_file, twin_reason
from harness.config.data.declared_models import load_space
from harness.model.errors import ConfigError, HarnessError
from harness.session.model_readback import check_model_readback

STJ = "global::System.Text.Json.Serialization"
BASE = """schema_version = 1
[roots]
all = "List<Person>"
[enums.Mood]
values = ["Calm", "Busy"]
[types.Person]
Name = "string"
Age = "int"
Mood = "Mood"
Home = "Address"
[types.Address]
Street = "string"
"""


def _space(tmp_path, extra: str = "", name: str = "people"):
    path = tmp_path / f"{name}.toml"
    top = extra and not extra.startswith("[")  # a top-level key goes before the first table
    path.write_text(BASE.replace("[roots]", extra + "[roots]", 1) if top else BASE + extra)
    return load_space(path, f"models/{name}.toml")


def test_types_are_settable_and_the_context_has_stjs_defaults_when_the_file_says_nothing(tmp_path):
    space = _space(tmp_path)
    code = space_file(space, "x")

    assert space.code.construction_of("Person") == "settable" and space.code.sourcegen.describe() == ""
    assert "public int Age { get; set; }" in code and "record" not in code
    declared = code[code.index("class PeopleCamelJsonContext") :]
    assert f"[{STJ}.JsonSourceGenerationOptions(GenerationMode = {STJ}.JsonSourceGenerationMode.Default)]" in declared
    assert "class PeopleDeclaredJsonContext" in declared
    assert twin_reason(space) is not None  # an enum: no JsonSrcGen twin anyway


def test_a_positional_record_takes_its_properties_in_file_order_with_the_twins_names_on_them(tmp_path):
    space = _space(tmp_path, '[construction]\nPerson = "positional"\nAddress = "init"\n')
    code = space_file(space, "x")

    plain = code[: code.index("namespace CamelAnnotated")]
    assert (
        "public record Person(\n        string? Name,\n        int Age,\n        Mood Mood,\n        Address? Home);"
        in plain
    )
    assert "public string? Street { get; init; }" in plain
    twin = code[code.index("namespace CamelAnnotated") :]
    assert f'[property: {STJ}.JsonPropertyName("age")]\n            int Age,' in twin


def test_jsonsrcgen_gets_no_twin_of_a_type_it_cannot_set(tmp_path):
    path = tmp_path / "points.toml"
    path.write_text('schema_version = 1\n[roots]\nall = "List<Point>"\n[types.Point]\nX = "int"\n')
    assert twin_reason(load_space(path)) is None
    path.write_text(path.read_text() + '[construction]\nPoint = "init"\n')
    assert "init-only" in str(twin_reason(load_space(path)))
    path.write_text(path.read_text().replace('"init"', '"positional"'))
    assert "positional record" in str(twin_reason(load_space(path)))


def test_the_declared_context_says_the_files_options_in_system_text_jsons_words(tmp_path):
    options = '[sourcegen]\nnaming = "kebab_case_upper"\nmode = "metadata"\nindented = true\nignore_nulls = true\n'
    options += "case_insensitive = true\nenums_as_strings = true\n"
    space = _space(tmp_path, options)
    code = space_file(space, "x")

    attribute = code[code.index("class PeopleCamelJsonContext") :].split("\n")[1]
    for said in (
        f"GenerationMode = {STJ}.JsonSourceGenerationMode.Metadata",
        f"PropertyNamingPolicy = {STJ}.JsonKnownNamingPolicy.KebabCaseUpper",
        "WriteIndented = true",
        f"DefaultIgnoreCondition = {STJ}.JsonIgnoreCondition.WhenWritingNull",
        "PropertyNameCaseInsensitive = true",
        "UseStringEnumConverter = true",
    ):
        assert said in attribute, said
    assert f"PropertyNamingPolicy = {STJ}.JsonKnownNamingPolicy.CamelCase" in code  # the camelCase context stays
    assert space.code.sourcegen.describe(with_mode=False) == (
        "naming=kebab_case_upper, indented=true, ignore_nulls=true, case_insensitive=true, enums_as_strings=true"
    )


def test_a_members_converter_is_its_librarys_attribute(tmp_path):
    space = _space(tmp_path, '[converters.Person]\nMood = "enum_as_string"\n')
    code = space_file(space, "x")
    assert (
        f"[{STJ}.JsonConverter(typeof({STJ}.JsonStringEnumConverter<global::JsonLab.Models.Declared.People.Mood>))]"
        in code
    )
    legacy = code[code.index("#if LEGACY_RUNTIME") :].split("\n")[1].strip()  # .NET Core 3.1: no generic converter
    assert legacy == f"[{STJ}.JsonConverter(typeof({STJ}.JsonStringEnumConverter))]"

    space = _space(
        tmp_path, '[converters.Person]\nMood = "newtonsoft_enum_as_string"\n[construction]\nPerson = "positional"\n'
    )
    code = space_file(space, "x")
    newtonsoft = "global::Newtonsoft.Json"
    converter = f"[property: {newtonsoft}.JsonConverter(typeof({newtonsoft}.Converters.StringEnumConverter))]"
    assert code.count(converter) == 2  # on the plain record and on its camelCase twin


@pytest.mark.parametrize(
    "extra, said",
    [
        ('[construction]\nNobody = "positional"\n', "[construction] names 'Nobody'"),
        ('[construction]\nPerson = "record"\n', "Person = 'record' is not a construction"),
        ("[construction]\nPerson = 1\n", "is not a construction"),
        ('construction = "positional"\n', "[construction] is a table"),
        ('[sourcegen]\nnaming = "PascalCase"\n', "naming = 'PascalCase' is not one of its values"),
        ('[sourcegen]\nmode = "fast"\n', "mode = 'fast'"),
        ('[sourcegen]\nindented = "yes"\n', "indented is true or false"),
        ('[sourcegen]\nconverters = ["x"]\n', "no option 'converters'"),
        ('[converters.Person]\nAge = "enum_as_string"\n', "Age is not of an enum type"),
        ('[converters.Person]\nNobody = "enum_as_string"\n', "names 'Nobody', which is not a property of Person"),
        ('[converters.Person]\nMood = "typeof(System.IO.File)"\n', "is not a converter"),
        ('[converters.Ghost]\nMood = "enum_as_string"\n', "[converters.Ghost] names a type that is not in [types]"),
        ('[converters]\nPerson = "enum_as_string"\n', "[converters.Person] is a table"),
    ],
)
def test_a_broken_or_hostile_option_is_an_error_naming_the_table_and_key(tmp_path, extra, said):
    with pytest.raises(ConfigError) as error:
        _space(tmp_path, extra)
    assert said in str(error.value)


def test_a_positional_record_refuses_a_property_every_record_declares(tmp_path):
    path = tmp_path / "odd.toml"
    path.write_text(
        'schema_version = 1\n[roots]\nall = "Odd"\n[types.Odd]\nEqualityContract = "int"\n'
        '[construction]\nOdd = "positional"\n'
    )
    with pytest.raises(ConfigError, match="named like a member every record declares"):
        load_space(path)


def test_a_type_named_like_the_labs_contexts_is_refused(tmp_path):
    path = tmp_path / "odd.toml"
    path.write_text('schema_version = 1\n[roots]\nall = "OddJsonContext"\n[types.OddJsonContext]\nX = "int"\n')
    with pytest.raises(ConfigError, match="ending JsonContext"):
        load_space(path)


def _listing(construction: dict, source_gen: str | None) -> dict:
    return {"models": [{"name": "people.all", "construction": construction, "source_gen": source_gen}]}


def test_what_the_lab_built_must_be_what_the_file_says(tmp_path):
    space = _space(
        tmp_path, '[construction]\nPerson = "positional"\n[sourcegen]\nnaming = "camelCase"\nmode = "serialization"\n'
    )
    built = {"Person": "positional", "Address": "settable"}
    check_model_readback("dotnet", _listing(built, "naming=camelCase"), [space])  # the mode leaves no mark
    check_model_readback("node", {"models": [{"name": "people.all"}]}, [space])  # a lab that reads nothing back

    with pytest.raises(HarnessError, match="built Person of model people.all settable"):
        check_model_readback("dotnet", _listing({"Person": "settable"}, "naming=camelCase"), [space])
    with pytest.raises(HarnessError, match="has options 'none'"):
        check_model_readback("dotnet", _listing(built, ""), [space])
