namespace JsonLab.Tests;

public class CliArgsTests
{
    private static CliArgs Args(string key, string value) => CliArgs.Parse(["paired", $"--{key}", value]);

    [Fact]
    public void An_integer_option_takes_the_ends_of_its_range()
    {
        Assert.Equal(0, Args("burst-collect-generation", "0").OptionalInt("burst-collect-generation", min: 0, max: 2));
        Assert.Equal(2, Args("burst-collect-generation", "2").OptionalInt("burst-collect-generation", min: 0, max: 2));
        Assert.Null(Args("seed", "1").OptionalInt("burst-collect-generation", min: 0, max: 2));
    }

    [Theory]
    [InlineData("3", "an integer from 0 to 2", "pass --burst-collect-generation 2,")]
    [InlineData("-1", "an integer from 0 to 2", "pass --burst-collect-generation 2,")]
    [InlineData("abc", "an integer from 0 to 2", "pass --burst-collect-generation 2,")]
    public void A_value_outside_the_range_names_the_range(string value, string message, string hint)
    {
        var error = Assert.Throws<LabException>(() => Args("burst-collect-generation", value).OptionalInt("burst-collect-generation", min: 0, max: 2));

        Assert.Contains(message, error.Message);
        Assert.Contains(hint, error.Hint);
    }

    [Fact]
    public void By_default_an_integer_option_is_positive()
    {
        var error = Assert.Throws<LabException>(() => Args("burst-ms", "0").OptionalInt("burst-ms"));

        Assert.Contains("a positive integer", error.Message);
        Assert.Contains("pass --burst-ms 10", error.Hint);
    }
}
