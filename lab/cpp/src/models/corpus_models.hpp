// The typed models of the standard corpus (datasets/corpus: twitter.json, citm_catalog.json, canada.json), the C++
// counterpart of lab/dotnet/src/Models/CorpusModels.cs, for the typed deserialize variants (nlohmann-typed,
// simdjson-ondemand-typed). Each struct is declared once (JSONLAB_MODEL, model.hpp); that declaration drives
// nlohmann's from_json, the simdjson On-Demand reader and the conversion back to the canonical Value.
//
// The models cover every member of every object in the three files (verification demands it: the model converted
// back must reproduce the file's canonical digest, and a member the model lacks makes the readers fail). Member names
// are the wire names, in file order. Types follow the values in the files: integers are std::int64_t (Twitter's ids
// exceed 2^53; their *_str twins are strings), fractions double; a member null in some objects is std::optional, a
// member absent from some objects is Maybe. Members null in every object (Twitter's geo, coordinates, place,
// contributors; citm's description, subjectCode, subtitle, name, seatMapImage) and arrays empty in every object
// (symbols, blockIds) get the shape the .NET models give them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model.hpp"

namespace jsonlab::models {

// ---- twitter.json: a Twitter REST API v1.1 search result ----

#define JSONLAB_TWITTER_STATUS_METADATA(F) \
    F(std::string, result_type)            \
    F(std::string, iso_language_code)
JSONLAB_MODEL(TwitterStatusMetadata, JSONLAB_TWITTER_STATUS_METADATA)

#define JSONLAB_TWITTER_URL(F)  \
    F(std::string, url)         \
    F(std::string, expanded_url) \
    F(std::string, display_url) \
    F(std::vector<std::int64_t>, indices)
JSONLAB_MODEL(TwitterUrl, JSONLAB_TWITTER_URL)

#define JSONLAB_TWITTER_URLS(F) F(std::vector<TwitterUrl>, urls)
JSONLAB_MODEL(TwitterUrls, JSONLAB_TWITTER_URLS)

#define JSONLAB_TWITTER_USER_ENTITIES(F) \
    F(TwitterUrls, description)          \
    F(Maybe<TwitterUrls>, url)
JSONLAB_MODEL(TwitterUserEntities, JSONLAB_TWITTER_USER_ENTITIES)

#define JSONLAB_TWITTER_USER(F)                           \
    F(std::int64_t, id)                                   \
    F(std::string, id_str)                                \
    F(std::string, name)                                  \
    F(std::string, screen_name)                           \
    F(std::string, location)                              \
    F(std::string, description)                           \
    F(std::optional<std::string>, url)                    \
    F(TwitterUserEntities, entities)                      \
    F(bool, protected_)                                   \
    F(std::int64_t, followers_count)                      \
    F(std::int64_t, friends_count)                        \
    F(std::int64_t, listed_count)                         \
    F(std::string, created_at)                            \
    F(std::int64_t, favourites_count)                     \
    F(std::optional<std::int64_t>, utc_offset)            \
    F(std::optional<std::string>, time_zone)              \
    F(bool, geo_enabled)                                  \
    F(bool, verified)                                     \
    F(std::int64_t, statuses_count)                       \
    F(std::string, lang)                                  \
    F(bool, contributors_enabled)                         \
    F(bool, is_translator)                                \
    F(bool, is_translation_enabled)                       \
    F(std::string, profile_background_color)              \
    F(std::string, profile_background_image_url)          \
    F(std::string, profile_background_image_url_https)    \
    F(bool, profile_background_tile)                      \
    F(std::string, profile_image_url)                     \
    F(std::string, profile_image_url_https)               \
    F(Maybe<std::string>, profile_banner_url)             \
    F(std::string, profile_link_color)                    \
    F(std::string, profile_sidebar_border_color)          \
    F(std::string, profile_sidebar_fill_color)            \
    F(std::string, profile_text_color)                    \
    F(bool, profile_use_background_image)                 \
    F(bool, default_profile)                              \
    F(bool, default_profile_image)                        \
    F(bool, following)                                    \
    F(bool, follow_request_sent)                          \
    F(bool, notifications)
JSONLAB_MODEL(TwitterUser, JSONLAB_TWITTER_USER)

// A hashtag, and a cashtag (symbols have the same shape in the API; empty throughout twitter.json).
#define JSONLAB_TWITTER_HASHTAG(F) \
    F(std::string, text)           \
    F(std::vector<std::int64_t>, indices)
JSONLAB_MODEL(TwitterHashtag, JSONLAB_TWITTER_HASHTAG)

#define JSONLAB_TWITTER_USER_MENTION(F) \
    F(std::string, screen_name)         \
    F(std::string, name)                \
    F(std::int64_t, id)                 \
    F(std::string, id_str)              \
    F(std::vector<std::int64_t>, indices)
JSONLAB_MODEL(TwitterUserMention, JSONLAB_TWITTER_USER_MENTION)

#define JSONLAB_TWITTER_MEDIA_SIZE(F) \
    F(std::int64_t, w)                \
    F(std::int64_t, h)                \
    F(std::string, resize)
JSONLAB_MODEL(TwitterMediaSize, JSONLAB_TWITTER_MEDIA_SIZE)

#define JSONLAB_TWITTER_MEDIA_SIZES(F) \
    F(TwitterMediaSize, medium)        \
    F(TwitterMediaSize, small)         \
    F(TwitterMediaSize, thumb)         \
    F(TwitterMediaSize, large)
JSONLAB_MODEL(TwitterMediaSizes, JSONLAB_TWITTER_MEDIA_SIZES)

#define JSONLAB_TWITTER_MEDIA(F)                  \
    F(std::int64_t, id)                           \
    F(std::string, id_str)                        \
    F(std::vector<std::int64_t>, indices)         \
    F(std::string, media_url)                     \
    F(std::string, media_url_https)               \
    F(std::string, url)                           \
    F(std::string, display_url)                   \
    F(std::string, expanded_url)                  \
    F(std::string, type)                          \
    F(TwitterMediaSizes, sizes)                   \
    F(Maybe<std::int64_t>, source_status_id)      \
    F(Maybe<std::string>, source_status_id_str)
JSONLAB_MODEL(TwitterMedia, JSONLAB_TWITTER_MEDIA)

#define JSONLAB_TWITTER_ENTITIES(F)                  \
    F(std::vector<TwitterHashtag>, hashtags)         \
    F(std::vector<TwitterHashtag>, symbols)          \
    F(std::vector<TwitterUrl>, urls)                 \
    F(std::vector<TwitterUserMention>, user_mentions) \
    F(Maybe<std::vector<TwitterMedia>>, media)
JSONLAB_MODEL(TwitterEntities, JSONLAB_TWITTER_ENTITIES)

// geo and coordinates: a GeoJSON point in the API (null throughout twitter.json).
#define JSONLAB_TWITTER_GEO(F) \
    F(std::string, type)       \
    F(std::vector<double>, coordinates)
JSONLAB_MODEL(TwitterGeo, JSONLAB_TWITTER_GEO)

// A place (null throughout twitter.json).
#define JSONLAB_TWITTER_PLACE(F) \
    F(std::string, id)           \
    F(std::string, url)          \
    F(std::string, place_type)   \
    F(std::string, name)         \
    F(std::string, full_name)    \
    F(std::string, country_code) \
    F(std::string, country)
JSONLAB_MODEL(TwitterPlace, JSONLAB_TWITTER_PLACE)

// A contributor (null throughout twitter.json).
#define JSONLAB_TWITTER_CONTRIBUTOR(F) \
    F(std::int64_t, id)                \
    F(std::string, id_str)             \
    F(std::string, screen_name)
JSONLAB_MODEL(TwitterContributor, JSONLAB_TWITTER_CONTRIBUTOR)

// A status, and the status it retweets: the same members, except that a retweeted status carries no retweeted_status
// of its own (true of the API and of the file), so the two are one member list with RETWEETED in between.
#define JSONLAB_TWITTER_STATUS_MEMBERS(F, RETWEETED)                \
    F(TwitterStatusMetadata, metadata)                              \
    F(std::string, created_at)                                      \
    F(std::int64_t, id)                                             \
    F(std::string, id_str)                                          \
    F(std::string, text)                                            \
    F(std::string, source)                                          \
    F(bool, truncated)                                              \
    F(std::optional<std::int64_t>, in_reply_to_status_id)           \
    F(std::optional<std::string>, in_reply_to_status_id_str)        \
    F(std::optional<std::int64_t>, in_reply_to_user_id)             \
    F(std::optional<std::string>, in_reply_to_user_id_str)          \
    F(std::optional<std::string>, in_reply_to_screen_name)          \
    F(TwitterUser, user)                                            \
    F(std::optional<TwitterGeo>, geo)                               \
    F(std::optional<TwitterGeo>, coordinates)                       \
    F(std::optional<TwitterPlace>, place)                           \
    F(std::optional<std::vector<TwitterContributor>>, contributors) \
    RETWEETED(F)                                                    \
    F(std::int64_t, retweet_count)                                  \
    F(std::int64_t, favorite_count)                                 \
    F(TwitterEntities, entities)                                    \
    F(bool, favorited)                                              \
    F(bool, retweeted)                                              \
    F(Maybe<bool>, possibly_sensitive)                              \
    F(std::string, lang)
#define JSONLAB_TWITTER_NO_RETWEETED(F)
#define JSONLAB_TWITTER_RETWEETED(F) F(Maybe<TwitterRetweetedStatus>, retweeted_status)
#define JSONLAB_TWITTER_RETWEETED_STATUS(F) JSONLAB_TWITTER_STATUS_MEMBERS(F, JSONLAB_TWITTER_NO_RETWEETED)
#define JSONLAB_TWITTER_STATUS(F) JSONLAB_TWITTER_STATUS_MEMBERS(F, JSONLAB_TWITTER_RETWEETED)
JSONLAB_MODEL(TwitterRetweetedStatus, JSONLAB_TWITTER_RETWEETED_STATUS)
JSONLAB_MODEL(TwitterStatus, JSONLAB_TWITTER_STATUS)

#define JSONLAB_TWITTER_SEARCH_METADATA(F) \
    F(double, completed_in)                \
    F(std::int64_t, max_id)                \
    F(std::string, max_id_str)             \
    F(std::string, next_results)           \
    F(std::string, query)                  \
    F(std::string, refresh_url)            \
    F(std::int64_t, count)                 \
    F(std::int64_t, since_id)              \
    F(std::string, since_id_str)
JSONLAB_MODEL(TwitterSearchMetadata, JSONLAB_TWITTER_SEARCH_METADATA)

#define JSONLAB_TWITTER_SEARCH(F)          \
    F(std::vector<TwitterStatus>, statuses) \
    F(TwitterSearchMetadata, search_metadata)
JSONLAB_MODEL(TwitterSearch, JSONLAB_TWITTER_SEARCH)

// ---- citm_catalog.json: a ticketing catalogue; its name tables and events are objects keyed by id ----

#define JSONLAB_CITM_EVENT(F)                   \
    F(std::optional<std::string>, description) \
    F(std::int64_t, id)                         \
    F(std::optional<std::string>, logo)         \
    F(std::string, name)                        \
    F(std::vector<std::int64_t>, subTopicIds)   \
    F(std::optional<std::string>, subjectCode)  \
    F(std::optional<std::string>, subtitle)     \
    F(std::vector<std::int64_t>, topicIds)
JSONLAB_MODEL(CitmEvent, JSONLAB_CITM_EVENT)

#define JSONLAB_CITM_PRICE(F)                 \
    F(std::int64_t, amount)                   \
    F(std::int64_t, audienceSubCategoryId)    \
    F(std::int64_t, seatCategoryId)
JSONLAB_MODEL(CitmPrice, JSONLAB_CITM_PRICE)

#define JSONLAB_CITM_AREA(F) \
    F(std::int64_t, areaId)  \
    F(std::vector<std::int64_t>, blockIds)
JSONLAB_MODEL(CitmArea, JSONLAB_CITM_AREA)

#define JSONLAB_CITM_SEAT_CATEGORY(F) \
    F(std::vector<CitmArea>, areas)   \
    F(std::int64_t, seatCategoryId)
JSONLAB_MODEL(CitmSeatCategory, JSONLAB_CITM_SEAT_CATEGORY)

#define JSONLAB_CITM_PERFORMANCE(F)                \
    F(std::int64_t, eventId)                       \
    F(std::int64_t, id)                            \
    F(std::optional<std::string>, logo)            \
    F(std::optional<std::string>, name)            \
    F(std::vector<CitmPrice>, prices)              \
    F(std::vector<CitmSeatCategory>, seatCategories) \
    F(std::optional<std::string>, seatMapImage)    \
    F(std::int64_t, start)                         \
    F(std::string, venueCode)
JSONLAB_MODEL(CitmPerformance, JSONLAB_CITM_PERFORMANCE)

#define JSONLAB_CITM_CATALOG(F)                          \
    F(Map<std::string>, areaNames)                       \
    F(Map<std::string>, audienceSubCategoryNames)        \
    F(Map<std::string>, blockNames)                      \
    F(Map<CitmEvent>, events)                            \
    F(std::vector<CitmPerformance>, performances)        \
    F(Map<std::string>, seatCategoryNames)               \
    F(Map<std::string>, subTopicNames)                   \
    F(Map<std::string>, subjectNames)                    \
    F(Map<std::string>, topicNames)                      \
    F(Map<std::vector<std::int64_t>>, topicSubTopics)    \
    F(Map<std::string>, venueNames)
JSONLAB_MODEL(CitmCatalog, JSONLAB_CITM_CATALOG)

// ---- canada.json: a GeoJSON FeatureCollection of polygons, coordinates as [longitude, latitude] ----

#define JSONLAB_CANADA_PROPERTIES(F) F(std::string, name)
JSONLAB_MODEL(CanadaProperties, JSONLAB_CANADA_PROPERTIES)

#define JSONLAB_CANADA_GEOMETRY(F) \
    F(std::string, type)           \
    F(std::vector<std::vector<std::vector<double>>>, coordinates)
JSONLAB_MODEL(CanadaGeometry, JSONLAB_CANADA_GEOMETRY)

#define JSONLAB_CANADA_FEATURE(F)     \
    F(std::string, type)              \
    F(CanadaProperties, properties)   \
    F(CanadaGeometry, geometry)
JSONLAB_MODEL(CanadaFeature, JSONLAB_CANADA_FEATURE)

#define JSONLAB_CANADA_COLLECTION(F) \
    F(std::string, type)             \
    F(std::vector<CanadaFeature>, features)
JSONLAB_MODEL(CanadaCollection, JSONLAB_CANADA_COLLECTION)

// ---- which model reads which dataset ----

// The datasets the typed variants apply to (their Variant::datasets).
inline const std::vector<std::string> CORPUS_DATASETS = {"twitter", "citm_catalog", "canada"};

// f(ModelTag<the dataset's model>{}); a dataset without a model is a LabError.
template <typename F>
decltype(auto) with_corpus_model(const std::string& dataset, F&& f) {
    if (dataset == "twitter") return f(ModelTag<TwitterSearch>{});
    if (dataset == "citm_catalog") return f(ModelTag<CitmCatalog>{});
    if (dataset == "canada") return f(ModelTag<CanadaCollection>{});
    throw LabError("no typed model for dataset '" + dataset + "'",
                   "the typed variants read twitter, citm_catalog and canada "
                   "(lab/cpp/src/models/corpus_models.hpp)");
}

// What a timed call returns: a number read from the parsed model, so the parse is not optimized away.
inline std::uint64_t summary(const TwitterSearch& m) {
    return m.statuses.size() + std::uint64_t(m.search_metadata.max_id);
}
inline std::uint64_t summary(const CitmCatalog& m) { return m.events.size() + m.performances.size(); }
inline std::uint64_t summary(const CanadaCollection& m) {
    return m.features.empty() ? 0 : m.features.back().geometry.coordinates.size();
}

}  // namespace jsonlab::models
