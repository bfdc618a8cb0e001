using System.Text;
using JsonLab.Adapters;
using JsonLab.Datasets;

namespace JsonLab.Verification;

/// <summary>
/// Verifies a document variant against the dataset's canonical digest (manifest "canonical"): a parse must give a tree
/// whose canonical form is the dataset's; a write must give JSON text that reads back (with JsonDocument) to the same
/// form. The digest is computed by the harness from the file, independently of every lab.
/// </summary>
public static class DocumentVerifier
{
    public static VerificationResult Verify(IDocumentAdapter adapter, Payload payload, string operation)
    {
        var treeType = Verifier.TypeName(adapter.TreeType);
        if (payload.Canonical is not { } expected)
        {
            var missing = $"dataset '{payload.Name}' has no canonical digest in datasets/manifest.json (python3 -m harness canonical-digests)";
            return new(adapter.Variant, payload.Name, treeType, "failed", 0, [], "skipped", missing, missing);
        }
        CanonicalDigest actual;
        long bytes = payload.Utf8.Length;
        try
        {
            var tree = adapter.ParseTree(payload);
            if (operation == "serialize")
            {
                var written = adapter.BindSerialize(tree)();
                var text = AsText(written);
                bytes = written is byte[] utf8 ? utf8.Length : Encoding.UTF8.GetByteCount(text);
                actual = CanonicalForm.OfText(text);
            }
            else
                actual = adapter.Digest(tree);
        }
        catch (Exception e)
        {
            var error = $"{adapter.Library} {adapter.LibraryVersion} cannot {operation} {payload.Name} as {treeType}: {Verifier.Describe(e)}";
            return new(adapter.Variant, payload.Name, treeType, "failed", 0, [], "skipped", error, error);
        }
        var what = operation == "serialize" ? "written text reads back to" : "parsed tree has";
        if (actual.Rule == expected.Rule && actual.Sha256 == expected.Sha256 && actual.Leaves == expected.Leaves)
            return new(adapter.Variant, payload.Name, treeType, "passed", 0, [], "skipped",
                $"{what} the dataset's canonical form ({expected.Rule}, {expected.Leaves} leaves)", PayloadBytes: bytes);
        var mismatch = $"canonical digest: expected {expected.Sha256[..12]}… with {expected.Leaves} leaves, got {actual.Sha256[..12]}… with {actual.Leaves}";
        return new(adapter.Variant, payload.Name, treeType, "failed", 1, [mismatch], "skipped", $"{what} another canonical form than the dataset: {mismatch}",
            PayloadBytes: bytes);
    }

    private static string AsText(object written) => written is byte[] bytes ? Encoding.UTF8.GetString(bytes) : (string)written;
}
