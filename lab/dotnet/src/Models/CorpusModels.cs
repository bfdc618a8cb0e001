// Typed models of the standard corpus (datasets/corpus: twitter.json, citm_catalog.json, canada.json), for the typed
// deserialize and serialize cells of the cross-language experiment.
//
// The property names are the wire names (snake_case for Twitter, camelCase for citm), written as they appear in the
// files, so every library binds them with its default settings: no attribute, naming policy or case-insensitive match
// is needed, and no library gets a binding the others do not. Types follow the values in the files: ids beyond 2^31 are
// long, doubles are double, members that are null or absent in some records are nullable. Members that are null in
// every record (Twitter's geo, coordinates, place, contributors) get the shape the Twitter API documents for them, so a
// library sees a class, not `object`.
#pragma warning disable IDE1006 // names are the JSON's own

namespace JsonLab.Models;

/// <summary>twitter.json: a Twitter REST API v1.1 search result.</summary>
public class TwitterSearch
{
    public List<TwitterStatus> statuses { get; set; } = [];
    public TwitterSearchMetadata search_metadata { get; set; } = new();
}

public class TwitterStatus
{
    public TwitterStatusMetadata metadata { get; set; } = new();
    public string created_at { get; set; } = "";
    public long id { get; set; }
    public string id_str { get; set; } = "";
    public string text { get; set; } = "";
    public string source { get; set; } = "";
    public bool truncated { get; set; }
    public long? in_reply_to_status_id { get; set; }
    public string? in_reply_to_status_id_str { get; set; }
    public long? in_reply_to_user_id { get; set; }
    public string? in_reply_to_user_id_str { get; set; }
    public string? in_reply_to_screen_name { get; set; }
    public TwitterUser user { get; set; } = new();
    public TwitterGeo? geo { get; set; }
    public TwitterGeo? coordinates { get; set; }
    public TwitterPlace? place { get; set; }
    public List<TwitterContributor>? contributors { get; set; }
    public TwitterStatus? retweeted_status { get; set; }
    public int retweet_count { get; set; }
    public int favorite_count { get; set; }
    public TwitterEntities entities { get; set; } = new();
    public bool favorited { get; set; }
    public bool retweeted { get; set; }
    public bool? possibly_sensitive { get; set; }
    public string lang { get; set; } = "";
}

public class TwitterStatusMetadata
{
    public string result_type { get; set; } = "";
    public string iso_language_code { get; set; } = "";
}

public class TwitterUser
{
    public long id { get; set; }
    public string id_str { get; set; } = "";
    public string name { get; set; } = "";
    public string screen_name { get; set; } = "";
    public string location { get; set; } = "";
    public string description { get; set; } = "";
    public string? url { get; set; }
    public TwitterUserEntities entities { get; set; } = new();
    public bool @protected { get; set; }
    public int followers_count { get; set; }
    public int friends_count { get; set; }
    public int listed_count { get; set; }
    public string created_at { get; set; } = "";
    public int favourites_count { get; set; }
    public int? utc_offset { get; set; }
    public string? time_zone { get; set; }
    public bool geo_enabled { get; set; }
    public bool verified { get; set; }
    public int statuses_count { get; set; }
    public string lang { get; set; } = "";
    public bool contributors_enabled { get; set; }
    public bool is_translator { get; set; }
    public bool is_translation_enabled { get; set; }
    public string profile_background_color { get; set; } = "";
    public string profile_background_image_url { get; set; } = "";
    public string profile_background_image_url_https { get; set; } = "";
    public bool profile_background_tile { get; set; }
    public string profile_image_url { get; set; } = "";
    public string profile_image_url_https { get; set; } = "";
    public string? profile_banner_url { get; set; }
    public string profile_link_color { get; set; } = "";
    public string profile_sidebar_border_color { get; set; } = "";
    public string profile_sidebar_fill_color { get; set; } = "";
    public string profile_text_color { get; set; } = "";
    public bool profile_use_background_image { get; set; }
    public bool default_profile { get; set; }
    public bool default_profile_image { get; set; }
    public bool following { get; set; }
    public bool follow_request_sent { get; set; }
    public bool notifications { get; set; }
}

public class TwitterUserEntities
{
    public TwitterUrls description { get; set; } = new();
    public TwitterUrls? url { get; set; }
}

public class TwitterUrls
{
    public List<TwitterUrl> urls { get; set; } = [];
}

public class TwitterUrl
{
    public string url { get; set; } = "";
    public string expanded_url { get; set; } = "";
    public string display_url { get; set; } = "";
    public int[] indices { get; set; } = [];
}

public class TwitterEntities
{
    public List<TwitterHashtag> hashtags { get; set; } = [];
    public List<TwitterHashtag> symbols { get; set; } = [];
    public List<TwitterUrl> urls { get; set; } = [];
    public List<TwitterUserMention> user_mentions { get; set; } = [];
    public List<TwitterMedia>? media { get; set; }
}

/// <summary>A hashtag, and a cashtag (symbols have the same shape in the API).</summary>
public class TwitterHashtag
{
    public string text { get; set; } = "";
    public int[] indices { get; set; } = [];
}

public class TwitterUserMention
{
    public string screen_name { get; set; } = "";
    public string name { get; set; } = "";
    public long id { get; set; }
    public string id_str { get; set; } = "";
    public int[] indices { get; set; } = [];
}

public class TwitterMedia
{
    public long id { get; set; }
    public string id_str { get; set; } = "";
    public int[] indices { get; set; } = [];
    public string media_url { get; set; } = "";
    public string media_url_https { get; set; } = "";
    public string url { get; set; } = "";
    public string display_url { get; set; } = "";
    public string expanded_url { get; set; } = "";
    public string type { get; set; } = "";
    public TwitterMediaSizes sizes { get; set; } = new();
    public long? source_status_id { get; set; }
    public string? source_status_id_str { get; set; }
}

public class TwitterMediaSizes
{
    public TwitterMediaSize medium { get; set; } = new();
    public TwitterMediaSize small { get; set; } = new();
    public TwitterMediaSize thumb { get; set; } = new();
    public TwitterMediaSize large { get; set; } = new();
}

public class TwitterMediaSize
{
    public int w { get; set; }
    public int h { get; set; }
    public string resize { get; set; } = "";
}

/// <summary>geo and coordinates (a GeoJSON point in the API; null throughout twitter.json).</summary>
public class TwitterGeo
{
    public string type { get; set; } = "";
    public double[] coordinates { get; set; } = [];
}

/// <summary>A place (null throughout twitter.json).</summary>
public class TwitterPlace
{
    public string id { get; set; } = "";
    public string url { get; set; } = "";
    public string place_type { get; set; } = "";
    public string name { get; set; } = "";
    public string full_name { get; set; } = "";
    public string country_code { get; set; } = "";
    public string country { get; set; } = "";
}

/// <summary>A contributor (null throughout twitter.json).</summary>
public class TwitterContributor
{
    public long id { get; set; }
    public string id_str { get; set; } = "";
    public string screen_name { get; set; } = "";
}

public class TwitterSearchMetadata
{
    public double completed_in { get; set; }
    public long max_id { get; set; }
    public string max_id_str { get; set; } = "";
    public string next_results { get; set; } = "";
    public string query { get; set; } = "";
    public string refresh_url { get; set; } = "";
    public int count { get; set; }
    public long since_id { get; set; }
    public string since_id_str { get; set; } = "";
}

/// <summary>citm_catalog.json: a ticketing catalogue; the name tables and events are keyed by id.</summary>
public class CitmCatalog
{
    public Dictionary<string, string> areaNames { get; set; } = new();
    public Dictionary<string, string> audienceSubCategoryNames { get; set; } = new();
    public Dictionary<string, string> blockNames { get; set; } = new();
    public Dictionary<string, CitmEvent> events { get; set; } = new();
    public List<CitmPerformance> performances { get; set; } = [];
    public Dictionary<string, string> seatCategoryNames { get; set; } = new();
    public Dictionary<string, string> subTopicNames { get; set; } = new();
    public Dictionary<string, string> subjectNames { get; set; } = new();
    public Dictionary<string, string> topicNames { get; set; } = new();
    public Dictionary<string, List<int>> topicSubTopics { get; set; } = new();
    public Dictionary<string, string> venueNames { get; set; } = new();
}

public class CitmEvent
{
    public string? description { get; set; }
    public int id { get; set; }
    public string? logo { get; set; }
    public string name { get; set; } = "";
    public List<int> subTopicIds { get; set; } = [];
    public string? subjectCode { get; set; }
    public string? subtitle { get; set; }
    public List<int> topicIds { get; set; } = [];
}

public class CitmPerformance
{
    public int eventId { get; set; }
    public int id { get; set; }
    public string? logo { get; set; }
    public string? name { get; set; }
    public List<CitmPrice> prices { get; set; } = [];
    public List<CitmSeatCategory> seatCategories { get; set; } = [];
    public string? seatMapImage { get; set; }
    public long start { get; set; }
    public string venueCode { get; set; } = "";
}

public class CitmPrice
{
    public int amount { get; set; }
    public int audienceSubCategoryId { get; set; }
    public int seatCategoryId { get; set; }
}

public class CitmSeatCategory
{
    public List<CitmArea> areas { get; set; } = [];
    public int seatCategoryId { get; set; }
}

public class CitmArea
{
    public int areaId { get; set; }
    public List<int> blockIds { get; set; } = [];
}

/// <summary>canada.json: a GeoJSON FeatureCollection of polygons, coordinates as [longitude, latitude] doubles.</summary>
public class CanadaCollection
{
    public string type { get; set; } = "";
    public List<CanadaFeature> features { get; set; } = [];
}

public class CanadaFeature
{
    public string type { get; set; } = "";
    public CanadaProperties properties { get; set; } = new();
    public CanadaGeometry geometry { get; set; } = new();
}

public class CanadaProperties
{
    public string name { get; set; } = "";
}

public class CanadaGeometry
{
    public string type { get; set; } = "";
    public double[][][] coordinates { get; set; } = [];
}
