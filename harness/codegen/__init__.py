"""Code from a model file: the C# classes and source-generation contexts, the JsonSrcGen twins, the C++ structs, the
JSON Schema; and a model inferred from a JSON document."""
