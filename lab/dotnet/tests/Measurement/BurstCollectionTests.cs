using JsonLab.Measurement;

namespace JsonLab.Tests.Measurement;

/// <summary>Collection counts are the process's: these tests run alone, after every other test class.</summary>
[CollectionDefinition(nameof(BurstCollectionTests), DisableParallelization = true)]
public sealed class BurstCollectionTestsCollection;

[Collection(nameof(BurstCollectionTests))]
public class BurstCollectionTests
{
    private static readonly BurstLoops Idle = new(n => n, n => null);

    private static (int Gen0, int Gen2) CollectionsDuring(int generation, int rounds)
    {
        var (gen0, gen2) = (GC.CollectionCount(0), GC.CollectionCount(2));
        PairedEngine.Run([Idle], new PairedEngine.Settings(1, rounds, 20, 5, 1, CollectGeneration: generation));
        return (GC.CollectionCount(0) - gen0, GC.CollectionCount(2) - gen2);
    }

    [Fact]
    public void The_default_collection_before_each_burst_is_benchmarkdotnets_full_one()
    {
        Assert.Equal(PairedEngine.FullCollectionGeneration, new PairedEngine.Settings(1, 2, 0, 0, 1).CollectGeneration);
        // two full collections before every burst, and the engine's own before its warm-up
        Assert.True(CollectionsDuring(2, rounds: 20).Gen2 >= 2 * 20 + 2);
    }

    [Fact]
    public void A_younger_generation_collects_before_every_burst_without_a_full_collection()
    {
        var (gen0, gen2) = CollectionsDuring(0, rounds: 20);
        Assert.True(gen0 >= 20, $"one gen-0 collection before each of the 20 bursts, {gen0} seen");
        Assert.True(gen2 <= 3, $"only the warm-up's full collection is a gen-2 one, {gen2} seen");
    }

    [Fact]
    public void A_generation_beyond_the_full_collection_is_refused_with_the_fix()
    {
        var error = Assert.Throws<LabException>(() => new PairedEngine.Settings(1, 2, 0, 0, 1, CollectGeneration: 3).Validate());
        Assert.Contains("--burst-collect-generation", error.Hint);
    }
}
