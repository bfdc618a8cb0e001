namespace JsonLab.Models;

// Write-up 002's serializer models: dotnet/performance src/benchmarks/micro/Serializers/DataGenerator.cs
// (@3d4bb67fc, unchanged at HEAD for these types), as System.Text.Json sees them: public properties in declaration
// order, get-only computed properties included (STJ ignores the MessagePack/protobuf attributes the originals carry).

public class LoginViewModel
{
    public string Email { get; set; } = "";
    public string Password { get; set; } = "";
    public bool RememberMe { get; set; }
}

public class Location
{
    public int Id { get; set; }
    public string Address1 { get; set; } = "";
    public string Address2 { get; set; } = "";
    public string City { get; set; } = "";
    public string State { get; set; } = "";
    public string PostalCode { get; set; } = "";
    public string Name { get; set; } = "";
    public string PhoneNumber { get; set; } = "";
    public string Country { get; set; } = "";
}

public class ActiveOrUpcomingEvent
{
    public int Id { get; set; }
    public string ImageUrl { get; set; } = "";
    public string Name { get; set; } = "";
    public string CampaignName { get; set; } = "";
    public string CampaignManagedOrganizerName { get; set; } = "";
    public string Description { get; set; } = "";
    public DateTimeOffset StartDate { get; set; }
    public DateTimeOffset EndDate { get; set; }
}

public class CampaignSummaryViewModel
{
    public int Id { get; set; }
    public string Title { get; set; } = "";
    public string Description { get; set; } = "";
    public string ImageUrl { get; set; } = "";
    public string OrganizationName { get; set; } = "";
    public string Headline { get; set; } = "";
}

public class IndexViewModel
{
    public List<ActiveOrUpcomingEvent> ActiveOrUpcomingEvents { get; set; } = [];
    public CampaignSummaryViewModel? FeaturedCampaign { get; set; }
    public bool IsNewAccount { get; set; }
    public bool HasFeaturedCampaign => FeaturedCampaign != null;
}

public class MyEventsListerViewModel
{
    public List<MyEventsListerItem> CurrentEvents { get; set; } = [];
    public List<MyEventsListerItem> FutureEvents { get; set; } = [];
    public List<MyEventsListerItem> PastEvents { get; set; } = [];
}

public class MyEventsListerItem
{
    public int EventId { get; set; }
    public string EventName { get; set; } = "";
    public DateTimeOffset StartDate { get; set; }
    public DateTimeOffset EndDate { get; set; }
    public string TimeZone { get; set; } = "";
    public string Campaign { get; set; } = "";
    public string Organization { get; set; } = "";
    public int VolunteerCount { get; set; }
    public List<MyEventsListerItemTask> Tasks { get; set; } = [];
}

public class MyEventsListerItemTask
{
    public string Name { get; set; } = "";
    public DateTimeOffset? StartDate { get; set; }
    public DateTimeOffset? EndDate { get; set; }
    public string FormattedDate => string.Format(System.Globalization.CultureInfo.CurrentCulture, "From {0:g} to {1:g}", StartDate, EndDate);
}
