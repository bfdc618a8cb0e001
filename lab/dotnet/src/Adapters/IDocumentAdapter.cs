using JsonLab.Datasets;
using JsonLab.Verification;

namespace JsonLab.Adapters;

/// <summary>
/// A variant that parses into the library's own document tree instead of a model (binding <c>document</c>): its
/// deserialize cells time the parse, its serialize cells time writing a tree it parsed itself back to JSON text. It binds
/// any dataset with a canonical digest, and is verified against it (Verification/DocumentVerifier.cs), so the same
/// operation in another lab (JSON.parse, JSON.stringify) is checked against the same form.
/// </summary>
public interface IDocumentAdapter : ISerializerAdapter
{
    /// <summary>The tree's CLR type (JsonDocument, JsonNode, JToken): the type both operations bind to.</summary>
    Type TreeType { get; }

    /// <summary>One parse of the payload in this variant's form, kept alive for checks and for serialize cells (the timed
    /// deserialize call is the same parse; a disposable tree is disposed there).</summary>
    object ParseTree(Payload payload);

    /// <summary>The canonical digest of a tree from <see cref="ParseTree"/>.</summary>
    CanonicalDigest Digest(object tree);
}
