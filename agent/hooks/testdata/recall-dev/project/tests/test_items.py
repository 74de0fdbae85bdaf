from pantry.models.item import parse_quantity


def test_parse_quantity_kg():
    assert parse_quantity("1.5 kg")[0] == 1500
