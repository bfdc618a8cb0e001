"""What the fake backend's labs answer to `list`: the captured .NET listing, and another lab's variants as its catalog
names them (lab/<lab>/catalog.toml), each a fake library; every variant with the settings its catalog gives it."""

from __future__ import annotations

import copy

from harness.config.lab.lab_catalog import LabNames, load_lab_catalog
from harness.config.lab.labs import LabSpec
from harness.config.lab.variant_settings import Offered, base_of
from harness.model.json_value import JsonMapping, JsonObject, JsonValue, as_array, as_object


def _settings_listing(offered: Offered) -> list[JsonValue]:
    """A variant's settings as a lab's `list` gives them."""
    return [{"name": name, "values": list(values), "meaning": name} for name, values in offered.items()]


def lab_listing(captured: JsonMapping, lab: LabSpec) -> JsonObject:
    """The lab's `list` output: the captured listing for its own lab, the catalog's variants for another."""
    names = load_lab_catalog(lab.directory.parent).get(lab.name) or LabNames()
    if lab.name == captured.get("lab"):
        listing = copy.deepcopy(dict(captured))
        listing.setdefault("composites", list(names.composites))
        for entry in map(as_object, as_array(listing["variants"])):
            variant = str(entry["variant"])
            entry.setdefault("settings", _settings_listing(names.settings.get(variant, {})))
            entry.setdefault("composites", [op for op, runs in names.composites.items() if variant in runs])
        return listing
    return {
        **copy.deepcopy(captured),
        "lab": lab.name,
        "variants": [
            {
                "variant": v,
                "library": f"fake {v}",
                "library_version": "1.0",
                "payload_form": "string",
                "settings": _settings_listing(names.settings.get(v, {})),
            }
            for v in names.variants or ()
        ],
    }


def variant_entry(listing: JsonMapping, variant: str) -> JsonObject:
    """The listing's entry of a variant (its base variant's, for a variant with settings), or {}."""
    entries = map(as_object, as_array(listing["variants"]))
    return next((v for v in entries if v["variant"] == base_of(variant)), {})
