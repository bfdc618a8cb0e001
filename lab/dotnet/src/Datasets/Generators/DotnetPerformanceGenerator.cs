using System.Text.Json;
using JsonLab.Models;

namespace JsonLab.Datasets.Generators;

/// <summary>
/// Write-up 002's four payloads, built as dotnet/performance's DataGenerator.Generate&lt;T&gt;() builds them and written
/// by System.Text.Json with default options (what WriteJson&lt;T&gt;.SerializeToString measured). Made repeatable: every
/// "now" is one fixed instant (the PR's review day, 2019-10-19 00:00 UTC) instead of DateTime.UtcNow, and the time zone
/// name is "(UTC) Coordinated Universal Time" instead of the platform's TimeZoneInfo.Utc.DisplayName. The lab runs
/// with invariant globalization, so FormattedDate uses the invariant culture.
/// </summary>
public sealed class DotnetPerformanceGenerator : IDatasetGenerator
{
    /// <summary>The fixed "now" of the generated data.</summary>
    public static readonly DateTimeOffset Now = new(2019, 10, 19, 0, 0, 0, TimeSpan.Zero);

    private const string ImageUrl = "https://www.dotnetfoundation.org/theme/img/carousel/foundation-diagram-content.png";

    private const string Foundation = "The .NET Foundation works with Microsoft and the broader industry to increase the exposure of open source projects in the .NET community and the .NET Foundation. The .NET Foundation provides access to these resources to projects and looks after the open source activities of our communities.";

    public string Name => "dotnet-performance";
    public string Description => "write-up 002: dotnet/performance DataGenerator's LoginViewModel, Location, IndexViewModel or MyEventsListerViewModel (--item), written by System.Text.Json defaults";

    public byte[] Generate(int count, int seed, string? item = null) => item switch
    {
        nameof(LoginViewModel) => JsonSerializer.SerializeToUtf8Bytes(new LoginViewModel { Email = "name.familyname@not.com", Password = "abcdefgh123456!@", RememberMe = true }),
        nameof(Location) => JsonSerializer.SerializeToUtf8Bytes(CreateLocation()),
        nameof(IndexViewModel) => JsonSerializer.SerializeToUtf8Bytes(CreateIndexViewModel()),
        nameof(MyEventsListerViewModel) => JsonSerializer.SerializeToUtf8Bytes(CreateMyEventsListerViewModel()),
        _ => throw new LabException($"generator {Name} has no item '{item}'", "pass --item LoginViewModel, Location, IndexViewModel or MyEventsListerViewModel"),
    };

    private static Location CreateLocation() => new()
    {
        Id = 1234,
        Address1 = "The Street Name",
        Address2 = "20/11",
        City = "The City",
        State = "The State",
        PostalCode = "abc-12",
        Name = "Nonexisting",
        PhoneNumber = "+0 11 222 333 44",
        Country = "The Greatest",
    };

    private static IndexViewModel CreateIndexViewModel()
    {
        var activeOrUpcoming = new ActiveOrUpcomingEvent
        {
            Id = 10,
            ImageUrl = ImageUrl,
            Name = "Just a name",
            CampaignName = "The very new campaing",
            CampaignManagedOrganizerName = "Name FamiltyName",
            Description = Foundation,
            StartDate = Now,
            EndDate = Now.AddYears(1),
        };
        return new IndexViewModel
        {
            IsNewAccount = false,
            FeaturedCampaign = new CampaignSummaryViewModel
            {
                Id = 234235,
                Title = "Promoting Open Source",
                Description = "Very nice campaing",
                ImageUrl = ImageUrl,
                OrganizationName = "The Company XYZ",
                Headline = "The Headline",
            },
            // As DataGenerator: 20 references to one instance.
            ActiveOrUpcomingEvents = Enumerable.Repeat(activeOrUpcoming, 20).ToList(),
        };
    }

    private static MyEventsListerViewModel CreateMyEventsListerViewModel() => new()
    {
        CurrentEvents = Enumerable.Repeat(CreateMyEventsListerItem(), 3).ToList(),
        FutureEvents = Enumerable.Repeat(CreateMyEventsListerItem(), 9).ToList(),
        PastEvents = Enumerable.Repeat(CreateMyEventsListerItem(), 60).ToList(),
    };

    private static MyEventsListerItem CreateMyEventsListerItem() => new()
    {
        Campaign = "A very nice campaing",
        EndDate = Now.AddDays(7),
        EventId = 321,
        EventName = "wonderful name",
        Organization = "Local Animal Shelter",
        StartDate = Now.AddDays(-7),
        TimeZone = "(UTC) Coordinated Universal Time",
        VolunteerCount = 15,
        Tasks = Enumerable.Repeat(new MyEventsListerItemTask { StartDate = Now, EndDate = Now.AddDays(1), Name = "A very nice task to have" }, 4).ToList(),
    };
}
