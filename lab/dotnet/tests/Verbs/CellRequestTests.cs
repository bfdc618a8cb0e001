using JsonLab.Verbs;

namespace JsonLab.Tests.Verbs;

public class CellRequestTests
{
    [Fact]
    public void Several_cells_of_one_variant_are_named_with_their_own_folders()
    {
        var args = CliArgs.Parse(["run", "--datasets", TestPayloads.DatasetsDir(), "--variant", "spanjson-default", "--out", "p",
            "--cell", "simple-models-1/serialize=a", "--cell", "simple-models-1000/deserialize=b"]);

        var cells = CellRequest.AllFrom(args);

        Assert.Equal(["spanjson-default/simple-models-1/serialize", "spanjson-default/simple-models-1000/deserialize"], cells.Select(c => c.Name));
        Assert.Equal(Path.GetFullPath("b"), cells[1].OutDir);
    }

    [Fact]
    public void Without_cell_options_the_one_cell_writes_into_out()
    {
        var args = CliArgs.Parse(["run", "--datasets", TestPayloads.DatasetsDir(), "--variant", "stj-default", "--dataset", "myclass-camel", "--out", "x"]);

        var cell = Assert.Single(CellRequest.AllFrom(args));

        Assert.Equal("stj-default/myclass-camel/deserialize", cell.Name);
        Assert.Equal(Path.GetFullPath("x"), cell.OutDir);
    }

    [Fact]
    public void A_malformed_cell_option_says_the_expected_form()
    {
        var args = CliArgs.Parse(["run", "--datasets", TestPayloads.DatasetsDir(), "--variant", "stj-default", "--out", "x", "--cell", "myclass-camel"]);

        var error = Assert.Throws<LabException>(() => CellRequest.AllFrom(args));

        Assert.Contains("DATASET/OPERATION=OUTDIR", error.Message);
    }

    [Fact]
    public void A_paired_member_of_a_variant_with_settings_keeps_its_settings_and_folder()
    {
        var cell = CellRequest.Member("stj-default+indented=true+naming=camelCase/myclass-camel/serialize=out/a=b", TestPayloads.DatasetsDir());

        Assert.Equal("stj-default+indented=true+naming=camelCase/myclass-camel/serialize", cell.Name);
        Assert.Equal(Path.GetFullPath("out/a=b"), cell.OutDir);
        Assert.Throws<LabException>(() => CellRequest.Member("stj-default+indented=true", TestPayloads.DatasetsDir()));
    }
}
