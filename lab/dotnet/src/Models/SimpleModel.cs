using System.Runtime.Serialization;
using System.Text.Json.Serialization;
using NetJSON;
using Newtonsoft.Json;

namespace JsonLab.Models;

/// <summary>
/// Write-up 004's entity: an int, a string and a bool, named camelCase on the wire through each library's
/// own attribute (System.Text.Json, Newtonsoft.Json, DataMember for the contract-based readers, NetJSON).
/// Like the write-up's, the properties are virtual and the class has no [DataContract].
/// </summary>
public class SimpleModel
{
    [DataMember(Name = "testInt"), JsonPropertyName("testInt"), JsonProperty("testInt"), NetJSONProperty("testInt")]
    public virtual int TestInt { get; set; }

    [DataMember(Name = "testString"), JsonPropertyName("testString"), JsonProperty("testString"), NetJSONProperty("testString")]
    public virtual string TestString { get; set; } = "";

    [DataMember(Name = "testBool"), JsonPropertyName("testBool"), JsonProperty("testBool"), NetJSONProperty("testBool")]
    public virtual bool TestBool { get; set; }
}
