"""The canonical form the labs' parse results are compared against (harness/model/canonical.py); lab/reference-node's
node:test suite checks that its own implementation gives the same digests."""


from harness.config.data.datasets import canonical_digests, load_manifest
from harness.model.canonical import RULE, _records, canonical_digest, parse


def test_records_are_pointer_kind_value_with_members_sorted_by_utf8():
    records = list(_records(parse(b'{"b":[1,{}],"a~/":null,"\xc3\xa9":"x","z":[]}'), ""))
    assert records == [
        b"6:/a~0~1 null 0:\n",
        b"4:/b/0 number 16:3ff0000000000000\n",
        b"4:/b/1 {} 0:\n",
        b"2:/z [] 0:\n",
        "3:/é string 1:x\n".encode(),
    ]


def test_numbers_compare_as_doubles_and_a_bom_is_not_part_of_the_document():
    assert canonical_digest(b"[-0]") == canonical_digest(b"[0.0]")
    assert canonical_digest(b"[9007199254740993]") == canonical_digest(b"[9007199254740992]")
    assert canonical_digest(b"\xef\xbb\xbf[1]") == canonical_digest(b"[1]")
    assert canonical_digest(b'["1"]') != canonical_digest(b"[1]")
    assert canonical_digest(b"{}")["leaves"] == 1 and canonical_digest(b"{}")["rule"] == RULE


def test_the_manifest_holds_the_current_digest_of_every_single_document_dataset():
    manifest = load_manifest()
    # committed files: a generated one (100+ MB) is not walked here, its digest was written once from its build; your
    # own documents (datasets/local/) are checked by the run that measures one
    stored = {n: d.canonical for n, d in manifest.datasets.items() if d.canonical and d.committed and not d.local}
    assert stored == canonical_digests(manifest, committed_only=True), "run: python3 -m harness canonical-digests"
    assert {"twitter", "citm_catalog", "canada"} <= set(stored)
    assert all(d.canonical is None for d in manifest.datasets.values() if d.layout == "lines")
