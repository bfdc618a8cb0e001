using JsonLab.Datasets;

namespace JsonLab.Adapters;

/// <summary>
/// A variant whose library has no build for the runtime this lab was published for (e.g. SpanJson ships net6.0 only, and
/// System.Text.Json source generation needs STJ 6+, not .NET Core 3.1's in-box 4.0.1). It keeps the variant's name so
/// the harness can ask for it everywhere; binding it throws, and the cell is "failed: reason" on this runtime only.
/// </summary>
public sealed class NotOnThisRuntimeAdapter(string variant, string library, string description, PayloadForm form, string reason,
    Models.ModelBinding binding = Models.ModelBinding.Plain, IReadOnlyList<SettingSpec>? settings = null, bool chains = false,
    bool readsEveryValue = false)
    : AdapterBase(variant, description, form, binding), ISettingsAdapter, IComposableAdapter, IValueReadingAdapter
{
    /// <summary>Whether the variant reads every value of its tree on the runtimes that have it.</summary>
    public bool ReadsEveryValue => readsEveryValue;

    public Func<long> BindParseThenRead(Payload payload) => throw Unavailable();

    /// <summary>The settings the variant takes on the runtimes that have it (so a name with settings fails with the reason too).</summary>
    public IReadOnlyList<SettingSpec> Settings => settings ?? [];

    public ISerializerAdapter With(string name, IReadOnlyList<KeyValuePair<string, string>> chosen) =>
        new NotOnThisRuntimeAdapter(name, library, $"{Description}; settings: {VariantSettings.Describe(chosen)}", Form, reason, Binding, settings, chains,
            readsEveryValue);

    public override string Library => library;
    public override string LibraryVersion => "not loaded";

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default => throw Unavailable();

    public override Func<object> BindSerialize<T>(T value) => throw Unavailable();

    /// <summary>Whether the variant chains its steps on the runtimes that have it (so `list` says the same on every runtime).</summary>
    public bool Chains => chains;

    public Func<object, T?> DeserializeInput<T>() => throw Unavailable();

    public Func<T, object> SerializeValue<T>() => throw Unavailable();

    private PlatformNotSupportedException Unavailable() =>
        new($"{library} cannot run on {System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription}: {reason}");
}
