#if LEGACY_RUNTIME
namespace System.Runtime.CompilerServices;

/// <summary>Lets C# records and init accessors compile for .NET Core 3.1, whose base library predates them.</summary>
internal static class IsExternalInit;
#endif
