using System.Text;
using JsonLab.Adapters;
using JsonLab.Datasets;
using JsonLab.Measurement;
using JsonLab.Models;
using JsonLab.Verification;

namespace JsonLab.Tests.Verification;

public class DocumentVerifierTests
{
    // Digest by harness/model/canonical.py (python3 -c "from harness.canonical import canonical_digest; print(canonical_digest(b'...'))"):
    // sorted member names by UTF-8 bytes, -0 as +0, an integer beyond 2^63 as its nearest double, '/' in a name as ~1.
    private const string Sample = "{\"b\":[1,2.5,-0.0,{}],\"a\":\"x\\u00e9/~\",\"\\u00e9\":null,\"c\":[true,false,[]],\"d/e\":12345678901234567890}";
    private static readonly CanonicalDigest SampleDigest = new("jsonlab-canonical-v1", "e4ce26089a0084d7864c13735bee2bb5ec99c4b5214514dcbdc9b06c158413c1", 10);

    private static IEnumerable<IDocumentAdapter> DocumentVariants => VariantRegistry.All.OfType<IDocumentAdapter>();

    private static Payload Untyped(string json, CanonicalDigest digest) =>
        new("sample", Payload.NoModel, json, Encoding.UTF8.GetBytes(json), "", null, digest);

    [Fact]
    public void The_canonical_form_of_every_document_tree_matches_the_harness_digest()
    {
        Assert.NotEmpty(DocumentVariants);
        Assert.Equal(SampleDigest, CanonicalForm.OfText(Sample));
        foreach (var adapter in DocumentVariants)
            Assert.Equal(SampleDigest, adapter.Digest(adapter.ParseTree(Untyped(Sample, SampleDigest))));
    }

    [Theory]
    [InlineData("twitter")]
    [InlineData("citm_catalog")]
    [InlineData("canada")]
    public void Every_document_variant_parses_and_writes_the_corpus_file_to_its_canonical_form(string dataset)
    {
        var payload = TestPayloads.Dataset(dataset);
        Assert.NotNull(payload.Canonical);
        foreach (var adapter in DocumentVariants)
            foreach (var operation in new[] { "deserialize", "serialize" })
            {
                var result = Verifier.Verify(adapter, payload, operation);
                Assert.True(result.Status == "passed", $"{adapter.Variant} {operation} {dataset}: {result.Message}");
                Assert.True(result.PayloadBytes > 0);
                if (operation == "deserialize")
                    Assert.Equal(payload.Utf8.Length, result.PayloadBytes);
            }
    }

    [Fact]
    public void A_tree_that_is_not_the_datasets_fails_verification_with_both_digests()
    {
        var wrong = SampleDigest with { Sha256 = new string('0', 64) };
        foreach (var adapter in DocumentVariants)
        {
            var result = Verifier.Verify(adapter, Untyped(Sample, wrong), "deserialize");
            Assert.Equal("failed", result.Status);
            Assert.Contains("expected 000000000000", result.Message);
        }
    }

    [Fact]
    public void A_dataset_without_a_digest_cannot_be_verified_and_a_typed_variant_cannot_bind_a_model_less_dataset()
    {
        var noDigest = new Payload("sample", Payload.NoModel, Sample, Encoding.UTF8.GetBytes(Sample), "");
        Assert.Contains("no canonical digest", Verifier.Verify(DocumentVariants.First(), noDigest, "deserialize").Message);
        var error = Assert.Throws<LabException>(() => OperationBinder.Bind(VariantRegistry.Find("stj-default"), noDigest, "deserialize"));
        Assert.Contains("declares no model", error.Message);
    }

    [Fact]
    public void The_timed_parse_and_write_are_the_variants_own_and_bind_the_library_tree()
    {
        var payload = TestPayloads.Dataset("twitter");
        foreach (var adapter in DocumentVariants)
        {
            Assert.Equal(ModelBinding.Document, adapter.Binding);
            Assert.IsAssignableFrom(adapter.TreeType, OperationBinder.Bind(adapter, payload, "deserialize")());
            var written = OperationBinder.Bind(adapter, payload, "serialize")();
            Assert.IsType(adapter.Form == PayloadForm.Utf8Bytes ? typeof(byte[]) : typeof(string), written);
        }
    }
}
